import React from 'react';
import {requireNativeViewManager} from 'expo-modules-core';

const NativeGradient = requireNativeViewManager('AcmeGradient');

export default function Gradient({colors, ...rest}) {
  return <NativeGradient colors={colors} {...rest} />;
}

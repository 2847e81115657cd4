import React from 'react';
import {requireNativeComponent, View} from 'react-native';

const MapView = requireNativeComponent('AcmeMapView');

export default function UnservedScreen() {
  return (
    <View>
      <MapView />
    </View>
  );
}

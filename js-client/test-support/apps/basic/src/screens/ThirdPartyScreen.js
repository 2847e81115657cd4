import React from 'react';
import {Text, View} from 'react-native';
import {SafeAreaProvider, SafeAreaView, useSafeAreaInsets} from 'react-native-safe-area-context';
import Svg, {Circle, Path} from 'react-native-svg';

function Insets() {
  const insets = useSafeAreaInsets();
  return <Text>insets {insets.top} {insets.bottom}</Text>;
}

export default function ThirdPartyScreen() {
  return (
    <SafeAreaProvider>
      <SafeAreaView testID="safe" edges={['top']}>
        <Insets />
        <Svg testID="drawing" width={100} height={100} viewBox="0 0 100 100">
          <Path testID="path" d="M10 10 L90 90" stroke="red" strokeWidth={2} />
          <Circle cx={50} cy={50} r={20} fill="blue" />
        </Svg>
      </SafeAreaView>
    </SafeAreaProvider>
  );
}

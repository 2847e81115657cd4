import React, {useEffect, useState} from 'react';
import {Text, View} from 'react-native';
import {requireNativeModule} from 'expo-modules-core';
import Gradient from 'acme-gradient';

const FontLoader = requireNativeModule('ExpoFontLoader');

export default function ExpoScreen() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    Promise.resolve(FontLoader.loadAsync('Inter', 'file:///fonts/Inter.ttf')).then(() => setLoaded(true));
  }, []);
  return (
    <View>
      <Text>{loaded ? 'fonts loaded' : 'loading fonts'}</Text>
      <Text>{FontLoader.isLoaded('Inter') ? 'Inter ready' : 'Inter missing'}</Text>
      <Gradient testID="gradient" colors={['red', 'blue']} />
    </View>
  );
}

import React from 'react';
import {View} from 'react-native';

function Exploding() {
  throw new Error('the profile could not be drawn');
}

export default function BrokenScreen() {
  return (
    <View>
      <Exploding />
    </View>
  );
}

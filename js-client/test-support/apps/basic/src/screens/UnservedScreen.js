import React from 'react';
import {requireNativeComponent, Text, View} from 'react-native';

// An older package's native component: asked for by name, with no spec.
const MapView = requireNativeComponent('AcmeMapView');

export default function UnservedScreen() {
  return (
    <View>
      <MapView testID="map" zoom={3} region={{latitude: 48.85, longitude: 2.35}} style={{flex: 1}}>
        <Text>Marker</Text>
      </MapView>
    </View>
  );
}

// A host component nobody asked for by name: React creates it as it is.
export function RawHostScreen() {
  return (
    <View>
      <AcmeRaw />
    </View>
  );
}

function AcmeRaw() {
  return React.createElement('AcmeRawView', {size: 1});
}

import React, {useEffect, useState} from 'react';
import {Text, TurboModuleRegistry, View} from 'react-native';
import Storage, {emitter} from 'acme-storage';
import {log} from '../log';

export function missingModule() {
  return TurboModuleRegistry.getEnforcing('AcmeMissing');
}

export default function StorageScreen() {
  const [values, setValues] = useState(null);
  useEffect(() => {
    const subscription = emitter.addListener('changed', ({key}) => log('changed', key));
    Storage.multiGet(['a', 'b']).then(result => setValues(result));
    return () => subscription.remove();
  }, []);
  return (
    <View>
      <Text>{values === null ? 'loading' : `values ${JSON.stringify(values)}`}</Text>
      <Text>{Storage.isReady() ? 'ready' : 'not ready'}</Text>
    </View>
  );
}

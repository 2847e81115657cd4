import React, {useEffect, useState} from 'react';
import {Text, View} from 'react-native';

export default function TimerScreen() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 150);
    return () => clearTimeout(timer);
  }, []);
  return <View>{ready ? <Text>Ready</Text> : <Text>Waiting</Text>}</View>;
}

// What changes a screen with no action of the test's: a JavaScript-driven animation, a timer, a network answer
// that fails into the app's own alert, and a promise nobody handles.
import React, { useEffect, useRef, useState } from 'react';
import { Animated, Pressable, Text, View } from 'react-native';

export default function LiveScreen() {
  const opacity = useRef(new Animated.Value(0)).current;
  const [later, setLater] = useState('soon');
  const [held, setHeld] = useState('not held');
  useEffect(() => {
    Animated.timing(opacity, { toValue: 1, duration: 200, useNativeDriver: false }).start();
    const timer = setTimeout(() => setLater('later'), 50);
    return () => clearTimeout(timer);
  }, [opacity]);
  const load = () => {
    fetch('http://127.0.0.1:9/nothing-listens-here')
      .then((r) => r.json())
      .catch((e) => alert(e.message));
  };
  const forget = () => {
    Promise.reject(new Error('nobody handles this'));
  };
  return (
    <View>
      <Animated.View testID="fading" style={{ opacity }} />
      <Text>{later}</Text>
      <Pressable onPress={load}>
        <Text>Load</Text>
      </Pressable>
      <Pressable onPress={forget}>
        <Text>Forget</Text>
      </Pressable>
      <Pressable onLongPress={() => setHeld('held')} delayLongPress={2000}>
        <Text>{held}</Text>
      </Pressable>
    </View>
  );
}

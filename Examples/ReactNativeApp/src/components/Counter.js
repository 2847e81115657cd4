import React, {useState} from 'react';
import {Pressable, StyleSheet, Text, View} from 'react-native';

export default function Counter({label}) {
  const [count, setCount] = useState(0);
  return (
    <View style={styles.row} testID={`counter-${label}`}>
      <Text style={styles.label}>{label}: </Text>
      <Text>{count === 0 ? 'never pressed' : `pressed ${count} times`}</Text>
      <Pressable accessibilityRole="button" accessibilityLabel={`Add to ${label}`} onPress={() => setCount(c => c + 1)}>
        <Text>+1</Text>
      </Pressable>
    </View>
  );
}

const styles = StyleSheet.create({
  row: {flexDirection: 'row', padding: 8},
  label: {fontWeight: 'bold'},
});

import React, {useState} from 'react';
import {
  Button,
  Pressable,
  Text,
  TouchableHighlight,
  TouchableOpacity,
  TouchableWithoutFeedback,
  View,
} from 'react-native';
import {log} from '../log';

export default function TouchablesScreen() {
  const [count, setCount] = useState(0);
  return (
    <View testID="touchables">
      <Text testID="count">Count: {count}</Text>
      <Pressable
        testID="pressable"
        onPressIn={() => log('pressIn')}
        onPressOut={() => log('pressOut')}
        onPress={() => {
          log('pressable');
          setCount(c => c + 1);
        }}
        onLongPress={() => log('longPress')}>
        <Text>Pressable</Text>
      </Pressable>
      <Pressable testID="disabled" disabled onPress={() => log('disabled pressed')}>
        <Text>Disabled</Text>
      </Pressable>
      <TouchableHighlight testID="highlight" onPress={() => log('highlight')} underlayColor="#eee">
        <Text>Highlight</Text>
      </TouchableHighlight>
      <TouchableWithoutFeedback onPress={() => log('withoutFeedback')}>
        <View testID="without-feedback">
          <Text>Without feedback</Text>
        </View>
      </TouchableWithoutFeedback>
      <Button title="Native button" onPress={() => log('button')} />
      <Text onPress={() => log('text link')}>Terms of use</Text>
      <Pressable testID="outer" onPress={() => log('outer')}>
        <Text>Outer</Text>
        <TouchableOpacity testID="inner" onPress={() => log('inner')}>
          <Text>Inner</Text>
        </TouchableOpacity>
      </Pressable>
    </View>
  );
}

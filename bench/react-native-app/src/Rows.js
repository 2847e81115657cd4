import React, {useState} from 'react';
import {Pressable, ScrollView, Text} from 'react-native';

function Row({index}) {
  const [count, setCount] = useState(0);
  return (
    <Pressable testID={`row-${index}`} onPress={() => setCount(c => c + 1)}>
      <Text>
        Row {index}: {count}
      </Text>
    </Pressable>
  );
}

export default function Rows({rows = 200}) {
  return (
    <ScrollView>
      {Array.from({length: rows}, (_, i) => (
        <Row key={i} index={i} />
      ))}
    </ScrollView>
  );
}

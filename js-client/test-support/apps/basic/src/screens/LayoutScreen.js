import React, {useState} from 'react';
import {ScrollView, Text, View} from 'react-native';

// What waits for a layout: content measured before it renders, and a scroll view's content size.
export default function LayoutScreen() {
  const [frame, setFrame] = useState(null);
  const [content, setContent] = useState(null);
  return (
    <View>
      <View testID="measured" onLayout={e => setFrame(e.nativeEvent.layout)}>
        <Text>{frame ? `measured ${frame.width}x${frame.height} at ${frame.x},${frame.y}` : 'measuring'}</Text>
      </View>
      <ScrollView testID="scroll" onContentSizeChange={(width, height) => setContent(`${width}x${height}`)}>
        <Text>{content ? `content ${content}` : 'no content size'}</Text>
      </ScrollView>
    </View>
  );
}

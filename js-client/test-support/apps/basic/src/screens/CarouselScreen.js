import React, {useState} from 'react';
import {ScrollView, Text, View, useWindowDimensions} from 'react-native';

// An onboarding carousel: pages the window's width, the page shown from where the scroll view settled.
export default function CarouselScreen() {
  const {width} = useWindowDimensions();
  const [page, setPage] = useState(0);
  return (
    <View>
      <ScrollView testID="carousel" horizontal pagingEnabled onMomentumScrollEnd={e => setPage(Math.round(e.nativeEvent.contentOffset.x / width))}>
        {['Welcome', 'Sync', 'Done'].map(title => (
          <View key={title} style={{width}}>
            <Text>{title}</Text>
          </View>
        ))}
      </ScrollView>
      <Text>{`page ${page + 1} of 3`}</Text>
    </View>
  );
}

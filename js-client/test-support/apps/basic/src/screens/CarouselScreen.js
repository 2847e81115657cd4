import React, {useState} from 'react';
import {FlatList, ScrollView, Text, View, useWindowDimensions} from 'react-native';

const CARD = 300;

// An onboarding carousel: pages the window's width, the page shown from where the scroll view settled; and a row
// of cards that snaps to each card (snapToInterval), the card shown from where it settled.
export default function CarouselScreen() {
  const {width} = useWindowDimensions();
  const [page, setPage] = useState(0);
  const [card, setCard] = useState(0);
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
      <FlatList
        testID="cards"
        horizontal
        snapToInterval={CARD}
        decelerationRate="fast"
        data={['Coffee', 'Tea', 'Juice', 'Water', 'Soda']}
        keyExtractor={item => item}
        renderItem={({item}) => (
          <View style={{width: CARD}}>
            <Text>{item}</Text>
          </View>
        )}
        onMomentumScrollEnd={e => setCard(Math.round(e.nativeEvent.contentOffset.x / CARD))}
      />
      <Text>{`card ${card + 1} of 5`}</Text>
    </View>
  );
}

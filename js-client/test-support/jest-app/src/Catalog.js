import React, { useEffect, useState } from 'react';
import { FlatList, Modal, Pressable, ScrollView, Text, View } from 'react-native';

export function Item({ name, selected, onSelect }) {
  return (
    <Pressable
      accessibilityRole="checkbox"
      accessibilityState={{ checked: selected, selected }}
      accessibilityLabel={`Item ${name}`}
      onPress={() => onSelect(name)}
      onLongPress={() => onSelect(null)}>
      <Text>{name}</Text>
    </Pressable>
  );
}

export default function Catalog({ items = ['Apple', 'Banana', 'Cherry'] }) {
  const [selected, setSelected] = useState(null);
  const [expanded, setExpanded] = useState(false);
  const [offset, setOffset] = useState(0);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 500);
    return () => clearTimeout(timer);
  }, []);
  return (
    <View>
      <Text testID="status">{loaded ? 'Loaded' : 'Loading…'}</Text>
      <Text>Selected: {selected ?? 'none'}</Text>
      {items.map((name) => (
        <Item key={name} name={name} selected={selected === name} onSelect={setSelected} />
      ))}
      <Pressable accessibilityRole="button" accessibilityState={{ expanded }} onPress={() => setExpanded((e) => !e)}>
        <Text>{expanded ? 'Less' : 'More'}</Text>
      </Pressable>
      {expanded ? <Text testID="details">Details</Text> : null}
      <View testID="empty" />
      <View accessibilityElementsHidden>
        <Text>Hidden text</Text>
      </View>
      <View style={{ display: 'none' }}>
        <Text>Not displayed</Text>
      </View>
      <ScrollView testID="scroller" onScroll={(e) => setOffset(e.nativeEvent.contentOffset.y)} scrollEventThrottle={16}>
        <Text>Offset {offset}</Text>
      </ScrollView>
      <FlatList testID="list" data={['one', 'two']} keyExtractor={(x) => x} renderItem={({ item }) => <Text>Row {item}</Text>} />
      <Modal visible={false}>
        <Text>In a closed modal</Text>
      </Modal>
      <View accessibilityValue={{ min: 0, max: 10, now: 3 }} testID="meter" accessibilityLabel="Volume" />
    </View>
  );
}

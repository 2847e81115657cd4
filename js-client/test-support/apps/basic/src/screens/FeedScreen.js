import React, {useState} from 'react';
import {FlatList, SafeAreaView, Text} from 'react-native';
import {log} from '../log';

const page = (from) => Array.from({length: 20}, (_, i) => ({id: String(from + i), title: `Post ${from + i}`}));

// An endless feed: the next page is loaded when the list is scrolled to its end.
export default function FeedScreen() {
  const [posts, setPosts] = useState(() => page(0));
  return (
    <SafeAreaView style={{flex: 1}}>
      <FlatList
        testID="feed"
        data={posts}
        keyExtractor={post => post.id}
        renderItem={({item}) => <Text>{item.title}</Text>}
        onEndReachedThreshold={0.5}
        onEndReached={() => {
          log('end reached', posts.length);
          setPosts(current => [...current, ...page(current.length)]);
        }}
      />
    </SafeAreaView>
  );
}

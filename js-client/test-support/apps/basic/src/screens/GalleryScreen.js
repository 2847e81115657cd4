import React, {useEffect, useRef, useState} from 'react';
import {ActivityIndicator, Animated, FlatList, Image, SafeAreaView, Text, View} from 'react-native';
import {log} from '../log';

const DATA = Array.from({length: 100}, (_, i) => ({id: String(i), title: `Item ${i}`}));

export default function GalleryScreen() {
  const [loaded, setLoaded] = useState(null);
  const fade = useRef(new Animated.Value(0)).current;
  const slide = useRef(new Animated.Value(0)).current;
  const spin = useRef(new Animated.Value(0)).current;
  useEffect(() => {
    const loop = Animated.loop(Animated.timing(spin, {toValue: 1, duration: 800, useNativeDriver: true}));
    loop.start(({finished}) => log('loop ended', finished));
    return () => loop.stop();
  }, [spin]);
  return (
    <SafeAreaView testID="gallery">
      <ActivityIndicator size="large" />
      <Image
        testID="logo"
        source={require('../../assets/logo.png')}
        onLoad={e => {
          const {width, height} = e.nativeEvent.source;
          log('loaded', width, height);
          setLoaded(`${width}x${height}`);
        }}
      />
      <Image
        testID="missing"
        source={{uri: 'file:///nonexistent/missing.png'}}
        onError={e => log('error', e.nativeEvent.error ? 'yes' : 'no')}
      />
      <Text>{loaded ? `Logo ${loaded}` : 'Loading logo'}</Text>
      <Animated.View testID="fader" style={{opacity: fade}} />
      <Animated.View testID="slider" style={{transform: [{translateX: slide}]}} />
      <Animated.View testID="spinner" style={{opacity: spin}} />
      <Text
        onPress={() =>
          Animated.timing(fade, {toValue: 1, duration: 300, useNativeDriver: true}).start(({finished}) =>
            log('fade done', finished),
          )
        }>
        Fade in
      </Text>
      <Text
        onPress={() =>
          Animated.timing(slide, {toValue: 50, duration: 50, useNativeDriver: false}).start(({finished}) =>
            log('slide done', finished),
          )
        }>
        Slide
      </Text>
      <FlatList
        testID="list"
        data={DATA}
        keyExtractor={item => item.id}
        renderItem={({item}) => <Text>{item.title}</Text>}
      />
    </SafeAreaView>
  );
}

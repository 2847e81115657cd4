import React, {useEffect, useRef, useState} from 'react';
import {
  AccessibilityInfo,
  Alert,
  Animated,
  Appearance,
  Dimensions,
  ImageBackground,
  InteractionManager,
  Keyboard,
  KeyboardAvoidingView,
  LayoutAnimation,
  PanResponder,
  PixelRatio,
  Platform,
  RefreshControl,
  ScrollView,
  SectionList,
  Share,
  StatusBar,
  StyleSheet,
  Text,
  TextInput,
  TouchableNativeFeedback,
  TouchableOpacity,
  useColorScheme,
  useWindowDimensions,
  Vibration,
  View,
  VirtualizedList,
} from 'react-native';
import {log} from '../log';

const SECTIONS = [
  {title: 'Fruits', data: ['Apple', 'Banana']},
  {title: 'Vegetables', data: ['Carrot']},
];

export default function KitchenSinkScreen() {
  const {width} = useWindowDimensions();
  const scheme = useColorScheme();
  const [refreshing, setRefreshing] = useState(false);
  const [reader, setReader] = useState(null);
  const [notes, setNotes] = useState('');
  const scrollY = useRef(new Animated.Value(0)).current;
  const pan = useRef(
    PanResponder.create({
      onStartShouldSetPanResponder: () => true,
      onPanResponderGrant: () => log('pan grant'),
      onPanResponderRelease: () => log('pan release'),
    }),
  ).current;
  useEffect(() => {
    AccessibilityInfo.isScreenReaderEnabled().then(setReader);
    const sub = Keyboard.addListener('keyboardDidShow', () => log('keyboard shown'));
    const task = InteractionManager.runAfterInteractions(() => log('interactions done'));
    return () => {
      sub.remove();
      task.cancel();
    };
  }, []);
  return (
    <KeyboardAvoidingView behavior={Platform.select({ios: 'padding', default: undefined})} style={styles.fill}>
      <StatusBar barStyle="dark-content" />
      <Animated.ScrollView
        testID="sink-scroll"
        refreshControl={
          <RefreshControl
            refreshing={refreshing}
            onRefresh={() => {
              log('refresh');
              setRefreshing(true);
            }}
          />
        }
        onScroll={Animated.event([{nativeEvent: {contentOffset: {y: scrollY}}}], {useNativeDriver: true})}
        scrollEventThrottle={16}>
        <Text>
          {Platform.OS} {width}x{Math.round(Dimensions.get('window').height)} @{PixelRatio.get()} {scheme}{' '}
          {reader === null ? '?' : reader ? 'reader' : 'no reader'}
        </Text>
        <ImageBackground source={require('../../assets/logo.png')} style={styles.banner}>
          <Text>On the banner</Text>
        </ImageBackground>
        <TouchableOpacity
          onPress={() =>
            Alert.alert('Delete?', 'This cannot be undone', [
              {text: 'Cancel', style: 'cancel'},
              {text: 'Delete', onPress: () => log('deleted')},
            ])
          }>
          <Text>Delete item</Text>
        </TouchableOpacity>
        <TouchableOpacity
          onPress={() => {
            LayoutAnimation.configureNext(LayoutAnimation.Presets.easeInEaseOut);
            Vibration.vibrate();
            Share.share({message: 'hello'}).then(r => log('shared', r.action));
          }}>
          <Text>Share</Text>
        </TouchableOpacity>
        <TouchableNativeFeedback onPress={() => log('native feedback')}>
          <Text>Android only</Text>
        </TouchableNativeFeedback>
        <View testID="pan-area" {...pan.panHandlers}>
          <Text>Drag me</Text>
        </View>
        <TextInput multiline placeholder="Notes" value={notes} onChangeText={setNotes} />
        <SectionList
          sections={SECTIONS}
          keyExtractor={item => item}
          renderItem={({item}) => <Text>{item}</Text>}
          renderSectionHeader={({section}) => <Text>Section {section.title}</Text>}
          scrollEnabled={false}
        />
        <VirtualizedList
          data={[1, 2, 3]}
          getItem={(data, index) => data[index]}
          getItemCount={data => data.length}
          keyExtractor={item => String(item)}
          renderItem={({item}) => <Text>Virtual {item}</Text>}
        />
      </Animated.ScrollView>
    </KeyboardAvoidingView>
  );
}

const styles = StyleSheet.create({
  fill: {flex: 1},
  banner: {width: '100%', height: 80, transform: [{scale: 1}], shadowOffset: {width: 0, height: 2}},
});

import React, {useState} from 'react';
import {SafeAreaView, StyleSheet, Switch, Text, View} from 'react-native';
import Counter from './components/Counter';
import TodoList from './screens/TodoList';

export default function App() {
  const [dark, setDark] = useState(false);
  return (
    <SafeAreaView style={[styles.app, dark && styles.dark]} testID="app">
      <View style={styles.row}>
        <Text style={dark ? styles.lightText : undefined}>Dark mode</Text>
        <Switch testID="dark-mode" value={dark} onValueChange={setDark} />
      </View>
      <Counter label="Likes" />
      <TodoList />
    </SafeAreaView>
  );
}

const styles = StyleSheet.create({
  app: {flex: 1, backgroundColor: '#f5f5f5'},
  dark: {backgroundColor: '#111'},
  lightText: {color: 'white'},
  row: {flexDirection: 'row', alignItems: 'center', padding: 8},
});

import React from 'react';
import {Button, Text, View} from 'react-native';
import {NavigationContainer} from '@react-navigation/native';
import {createNativeStackNavigator} from '@react-navigation/native-stack';

const Stack = createNativeStackNavigator();

function Home({navigation}) {
  return (
    <View>
      <Text>Home</Text>
      <Button title="Next" onPress={() => navigation.navigate('Next')} />
    </View>
  );
}

function Next() {
  return (
    <View>
      {Array.from({length: 20}, (_, i) => (
        <Text key={i}>Line {i}</Text>
      ))}
    </View>
  );
}

export default function Nav() {
  return (
    <NavigationContainer>
      <Stack.Navigator>
        <Stack.Screen name="Home" component={Home} />
        <Stack.Screen name="Next" component={Next} />
      </Stack.Navigator>
    </NavigationContainer>
  );
}

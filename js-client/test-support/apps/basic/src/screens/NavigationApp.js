import React from 'react';
import {Button, Text, View} from 'react-native';
import {NavigationContainer} from '@react-navigation/native';
import {createNativeStackNavigator} from '@react-navigation/native-stack';
import {log} from '../log';

const Stack = createNativeStackNavigator();

function Home({navigation}) {
  return (
    <View testID="home">
      <Text>Home screen</Text>
      <Button title="Go to details" onPress={() => navigation.navigate('Details', {id: 7})} />
    </View>
  );
}

function Details({route}) {
  return (
    <View testID="details">
      <Text>Details of {route.params.id}</Text>
    </View>
  );
}

export default function NavigationApp() {
  return (
    <NavigationContainer onStateChange={state => log('routes', state.routes.map(r => r.name).join(','))}>
      <Stack.Navigator>
        <Stack.Screen name="Home" component={Home} />
        <Stack.Screen name="Details" component={Details} />
      </Stack.Navigator>
    </NavigationContainer>
  );
}

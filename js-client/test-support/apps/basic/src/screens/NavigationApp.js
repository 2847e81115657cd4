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

function Details({navigation, route}) {
  return (
    <View testID="details">
      <Text>Details of {route.params.id}</Text>
      <Button title="Lock" onPress={() => navigation.navigate('Locked')} />
      <Button title="Full screen" onPress={() => navigation.navigate('Full')} />
    </View>
  );
}

// gestureEnabled: false leaves the header's back button; with the header hidden too, the user cannot go back.
function Locked({navigation}) {
  return <Button title="Finish" onPress={() => navigation.navigate('Final')} />;
}

function Final() {
  return <Text>The end</Text>;
}

function FullScreen({navigation}) {
  return <Button title="Close" onPress={() => navigation.goBack()} />;
}

export default function NavigationApp() {
  return (
    <NavigationContainer onStateChange={state => log('routes', state.routes.map(r => r.name).join(','))}>
      <Stack.Navigator>
        <Stack.Screen name="Home" component={Home} />
        <Stack.Screen name="Details" component={Details} />
        <Stack.Screen name="Locked" component={Locked} options={{gestureEnabled: false}} />
        <Stack.Screen name="Final" component={Final} options={{gestureEnabled: false, headerShown: false}} />
        <Stack.Screen name="Full" component={FullScreen} options={{presentation: 'fullScreenModal'}} />
      </Stack.Navigator>
    </NavigationContainer>
  );
}

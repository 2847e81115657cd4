// A native stack (React Navigation, react-native-screens from its spec): a press navigates, the next screen mounts.
import React from 'react';
import { Button, Text, View } from 'react-native';
import { NavigationContainer } from '@react-navigation/native';
import { createNativeStackNavigator } from '@react-navigation/native-stack';
import { render, screen, fireEvent } from '@testing-library/react-native';

const Stack = createNativeStackNavigator();
function Home({ navigation }) {
  return (
    <View>
      <Text>Home screen</Text>
      <Button title="Go to details" onPress={() => navigation.navigate('Details', { id: 7 })} />
    </View>
  );
}
function Details({ route }) {
  return <Text>Details of {route.params.id}</Text>;
}
function AppNav() {
  return (
    <NavigationContainer>
      <Stack.Navigator>
        <Stack.Screen name="Home" component={Home} />
        <Stack.Screen name="Details" component={Details} />
      </Stack.Navigator>
    </NavigationContainer>
  );
}

test('navigates to details', async () => {
  render(<AppNav />);
  expect(screen.getByText('Home screen')).toBeOnTheScreen();
  fireEvent.press(screen.getByText('Go to details'));
  expect(await screen.findByText('Details of 7')).toBeOnTheScreen();
  expect(screen.queryByText('Home screen')).toBeNull();
});

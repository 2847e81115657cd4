// A jest mock of an icon library that renders React Native's own text host by name, as a team's setup does
// (`jest.mock('@expo/vector-icons/MaterialCommunityIcons', () => ({ default: ({ name }) =>
// React.createElement('RCTText', {}, name) }))`), in a file whose screen imports no `Text`: on a phone, AppContainer
// loads LogBox's notifications in development before the app renders, and their imports register `RCTText`'s and
// `RCTImageView`'s view configs, so such an element is created; the mocks render any name. Alone in its file: a
// `Text` rendered before would register them anyway.
import * as React from 'react';
import { Pressable, View } from 'react-native';
import { fireEvent, render, screen } from '@testing-library/react-native';

function Icon({ name }) {
  return React.createElement('RCTText', { testID: 'icon' }, name);
}

function IconButton({ icon, onPress }) {
  return (
    <Pressable accessibilityRole="button" onPress={onPress}>
      <View>
        <Icon name={icon} />
      </View>
      {React.createElement('RCTImageView', { testID: 'badge', source: [{ uri: 'file:///badge.png' }] })}
    </Pressable>
  );
}

test("a mock's RCTText and RCTImageView elements render in a screen that imports no Text, as on a phone", () => {
  const onPress = jest.fn();
  render(<IconButton icon="check" onPress={onPress} />);
  expect(screen.getByTestId('icon').children).toEqual(['check']);
  expect(screen.getByTestId('badge')).toBeOnTheScreen();
  fireEvent.press(screen.getByRole('button'));
  expect(onPress).toHaveBeenCalledTimes(1);
});

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

// A mock that renders a host name no phone has with the icon's name as its text, as teams' setups do for
// @expo/vector-icons (`(props) => React.createElement('Text', props, props.name)`), or `'Icon'` with the name inside:
// React Native's mocks take strings in any host, and take `Text` for their text host; React Native's renderer takes
// them only in its text views, and threw "Text strings must be rendered within a <Text> component" for every screen
// with such an icon. A made-up host takes them as on the mocks, and `getByText` finds the made-up `Text`.
test("a mock's made-up host holds its icon's name as text: 'Text' is found by getByText, as on the mocks", () => {
  const MockIcon = (props) => React.createElement('Text', props, props.name);
  const OtherIcon = ({ name }) => React.createElement('Icon', { testID: `icon-${name}` }, name);
  const onPress = jest.fn();
  render(
    <Pressable accessibilityRole="button" onPress={onPress}>
      <View>
        <MockIcon name="home" color="red" size={20} />
        <OtherIcon name="star" />
      </View>
    </Pressable>,
  );
  expect(screen.getByText('home')).toBeOnTheScreen();
  expect(screen.getByText('home').props.color).toBe('red');
  expect(screen.getByTestId('icon-star')).toBeOnTheScreen();
  expect(screen.queryByText('star')).toBeNull();
  fireEvent.press(screen.getByText('home'));
  expect(onPress).toHaveBeenCalledTimes(1);
});

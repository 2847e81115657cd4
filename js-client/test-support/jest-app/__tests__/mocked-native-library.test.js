// A native library mocked as teams mock one: its components are made-up host names ('Svg', 'Circle', a lowercase
// 'mock-picker'), which React Native's jest mocks render as any other element. Under bridged they render too (an
// untyped view each), their props the element's, their handlers reached by fireEvent as RNTL reaches them.
import * as React from 'react';
import { Pressable, Text, TextInput, TouchableOpacity, View } from 'react-native';
import { fireEvent, render, screen } from '@testing-library/react-native';
import { Svg, Circle } from 'react-native-svg';

jest.mock('react-native-svg', () => ({ Svg: 'Svg', Circle: 'Circle' }));
// An older team's line: a component of React Native's own mocked as a string, rendered as a made-up host.
jest.mock('react-native/Libraries/Components/Touchable/TouchableOpacity', () => 'TouchableOpacity');
// TextInput mocked with React Native's own mockComponent, as its jest setup renders one: a made-up host 'TextInput'.
jest.mock('react-native/Libraries/Components/TextInput/TextInput', () =>
  jest.requireActual('react-native/jest/mockComponent')('react-native/Libraries/Components/TextInput/TextInput'),
);

function Badge({ count, onPick }) {
  return (
    <View>
      <Svg testID="badge" width={20} height={20}>
        <Circle cx={10} cy={10} r={8} fill="red" />
      </Svg>
      <Text>{`${count} new`}</Text>
      <mock-picker testID="picker" selectedValue="a" onValueChange={onPick} />
    </View>
  );
}

test('components of a mocked native library render as host elements with their props', () => {
  const onPick = jest.fn();
  render(<Badge count={3} onPick={onPick} />);
  expect(screen.getByText('3 new')).toBeOnTheScreen();
  expect(screen.getByTestId('badge').type).toBe('Svg');
  expect(screen.getByTestId('badge').props.width).toBe(20);
  expect(screen.UNSAFE_getByType('Circle').props.fill).toBe('red');
  fireEvent(screen.getByTestId('picker'), 'valueChange', 'b');
  expect(onPick).toHaveBeenCalledWith('b');
});

// A transformer's stand-in for an imported .svg file (`module.exports = 'SvgMock'`) is given the props the real
// react-native-svg takes: width and height as strings. The mocks render any prop; so does bridged for a made-up name
// (its top-level props are the element's; only its style lays it out), where a View's layout would refuse "30".
test('a made-up host name takes props a View could not, as the mocks do (width="30" of a mocked .svg)', () => {
  const SvgMock = 'SvgMock';
  render(
    <View>
      <SvgMock fill="orange" width="30" height="30" accessibilityLabel="Added Today" />
      <SvgMock testID="styled" style={{ width: 12, height: 12 }} opacity="half" />
    </View>,
  );
  expect(screen.getByLabelText('Added Today')).toBeOnTheScreen();
  expect(screen.getByLabelText('Added Today').props.width).toBe('30');
  expect(screen.getByTestId('styled').props.opacity).toBe('half');
});

// A made-up host responds to no touch (no phone has it): fireEvent.press calls its onPress as RNTL does, found as RNTL
// finds it (from a text inside, not through pointerEvents="none"), where a native touch would reach nothing.
test('fireEvent.press reaches the onPress of a made-up host, as on the mocks', () => {
  const onPress = jest.fn();
  const onTap = jest.fn();
  render(
    <View>
      <TouchableOpacity testID="button" onPress={onPress}>
        <Text>Tap</Text>
      </TouchableOpacity>
      <Svg testID="icon" onPress={onTap} />
      <TouchableOpacity testID="off" pointerEvents="none" onPress={onPress} />
    </View>,
  );
  expect(screen.getByTestId('button').type).toBe('TouchableOpacity');
  fireEvent.press(screen.getByText('Tap'));
  fireEvent.press(screen.getByTestId('button'), { nativeEvent: { pageX: 1 } });
  expect(onPress.mock.calls).toEqual([[], [{ nativeEvent: { pageX: 1 } }]]);
  fireEvent.press(screen.getByTestId('icon'));
  expect(onTap).toHaveBeenCalledTimes(1);
  fireEvent.press(screen.getByTestId('off'));
  expect(onPress).toHaveBeenCalledTimes(2);
});

// A team's setup that mocks an icon library with empty strings (`jest.mock('@expo/vector-icons', () => ({ Ionicons: ''
// }))`, as BryanFonseca/sofka-recruitment-app's does): the mocks render an element of type ''; so does bridged (the
// daemon takes no empty name, so it names the view otherwise; the element's type stays '').
test("an element of type '' (a library mocked as empty strings) renders and takes its presses, as on the mocks", () => {
  const Ionicons = '';
  const onClose = jest.fn();
  const onTap = jest.fn();
  render(
    <View>
      <Pressable testID="close" onPress={onClose}>
        <Ionicons name="close" size={24} />
      </Pressable>
      <Ionicons testID="icon" name="heart" onPress={onTap} />
      <Text>Delete?</Text>
    </View>,
  );
  expect(screen.getByText('Delete?')).toBeOnTheScreen();
  expect(screen.getByTestId('icon').type).toBe('');
  expect(screen.UNSAFE_getAllByType('').map((icon) => icon.props.name)).toEqual(['close', 'heart']);
  fireEvent.press(screen.getByTestId('close'));
  expect(onClose).toHaveBeenCalledTimes(1);
  fireEvent.press(screen.getByTestId('icon'));
  expect(onTap).toHaveBeenCalledTimes(1);
});

// A mock whose made-up name is also one of the daemon's own components, which React Native has no view for (the
// client API's 'View', 'Slider', 'TextField'): andremralves/hackathon-caixa-2025's setup mocks expo-linear-gradient as
// `({ children }) => React.createElement('View', {}, children)`, and a common line mocks the slider as 'Slider'. React
// Native registers no view config under these names (its view is RCTView), so such an element is a mock's made-up
// host as any other, rendered as on the mocks; it was refused as a component bridged does not serve.
test("made-up hosts named as the daemon's own components ('View', 'Slider') render and take their presses, as on the mocks", () => {
  const onPress = jest.fn();
  const onSlide = jest.fn();
  const LinearGradient = ({ children }) => React.createElement('View', {}, children);
  render(
    <Pressable accessibilityRole="button" onPress={onPress}>
      <LinearGradient>
        <Text>Contratar</Text>
      </LinearGradient>
      {React.createElement('Slider', { testID: 'slider', value: 0.5, onValueChange: onSlide })}
    </Pressable>,
  );
  expect(screen.getByText('Contratar')).toBeOnTheScreen();
  expect(screen.UNSAFE_getByType('View').props.children).toBeTruthy();
  expect(screen.getByTestId('slider').type).toBe('Slider');
  expect(screen.getByTestId('slider').props.value).toBe(0.5);
  fireEvent.press(screen.getByRole('button'));
  expect(onPress).toHaveBeenCalledTimes(1);
  fireEvent(screen.getByTestId('slider'), 'valueChange', 0.7);
  expect(onSlide).toHaveBeenCalledWith(0.7);
});

// Such a mock passes the library's own props through, which the daemon's component of that name does not take (its
// 'View' has no `colors`): the made-up host is a component of its own, and its element's type is still the mock's.
test('a made-up host named as a daemon component takes the props the mock passes through, as on the mocks', () => {
  const LinearGradient = ({ children, ...rest }) => React.createElement('View', rest, children);
  render(
    <LinearGradient testID="gradient" colors={['#fff', '#000']} start={{ x: 0, y: 0 }} style={{ flex: 1 }}>
      <Text>Inside</Text>
    </LinearGradient>,
  );
  const gradient = screen.getByTestId('gradient');
  expect(gradient.type).toBe('View');
  expect(gradient.props.colors).toEqual(['#fff', '#000']);
  expect(gradient).toHaveStyle({ flex: 1 });
  expect(screen.getByText('Inside')).toBeOnTheScreen();
  // Its own press handler is called as RNTL calls it, as any made-up host's (no phone has such a view to touch).
  const onPress = jest.fn();
  render(React.createElement('View', { testID: 'tap', onPress }));
  fireEvent.press(screen.getByTestId('tap'));
  expect(onPress).toHaveBeenCalledTimes(1);
});

// A made-up host takes any value, as the mocks' hosts do: a UI kit mocked as strings, handed a React element, a list
// of callbacks, a value that refers to itself or nests deep, keeps them as the element's props (bridged sent them to
// the daemon: JSON's "Converting circular structure", "is not usable as a native method argument", a stack overflow).
test('a made-up host keeps props no native view could take: an element, callbacks, a cycle, a deep value, a symbol', () => {
  const cyclic = { name: 'points' };
  cyclic.self = cyclic;
  let deep = { leaf: true };
  for (let i = 0; i < 40; i++) deep = { deep };
  const right = <Text>Edit</Text>;
  const callbacks = [() => 1, () => 2];
  render(React.createElement('Header', { testID: 'header', title: 'Home', rightComponent: right, actions: callbacks, data: cyclic, deep, tag: Symbol('x') }));
  const header = screen.getByTestId('header');
  expect(header.props.title).toBe('Home');
  expect(header.props.rightComponent).toBe(right);
  expect(header.props.actions).toBe(callbacks);
  expect(header.props.data).toBe(cyclic);
  expect(header.native.props.title).toBe('Home');
  expect(header.native.props.rightComponent).toBeUndefined();
});

test("a TextInput mocked with React Native's mockComponent is a text field to the queries by placeholder and display value, as on the mocks", () => {
  render(<TextInput placeholder="Email" value="ann@example.com" />);
  expect(screen.getByPlaceholderText('Email')).toBeOnTheScreen();
  expect(screen.getByDisplayValue('ann@example.com')).toBeOnTheScreen();
  expect(screen.getByPlaceholderText('Email')).toHaveDisplayValue('ann@example.com');
  render(<TextInput placeholder="Name" defaultValue="Ann" />);
  expect(screen.getByDisplayValue('Ann')).toBeOnTheScreen();
});

// waitFor, findBy, waitForElementToBeRemoved and act, with real and with jest's fake timers; jest.mock of the
// app's own module.
import React from 'react';
import { Text, View } from 'react-native';
import { render, screen, fireEvent, userEvent, waitFor, waitForElementToBeRemoved, act } from '@testing-library/react-native';
import Login from '../src/Login';
import Catalog from '../src/Catalog';
import { fetchGreeting } from '../src/api';

jest.mock('../src/api', () => ({ fetchGreeting: jest.fn() }));

afterEach(() => {
  jest.useRealTimers();
});

test('a mocked module answers, and waitFor sees the result', async () => {
  fetchGreeting.mockResolvedValueOnce('hello ana');
  render(<Login />);
  fireEvent.changeText(screen.getByTestId('name'), 'ana');
  fireEvent.press(screen.getByText('Sign in'));
  await waitFor(() => expect(screen.getByTestId('greeting')).toHaveTextContent('HELLO ANA!'));
  expect(fetchGreeting).toHaveBeenCalledWith('ana');
});

test('a rejection shown as an alert role', async () => {
  fetchGreeting.mockRejectedValueOnce(new Error('offline'));
  render(<Login />);
  fireEvent.changeText(screen.getByTestId('name'), 'bo');
  fireEvent.press(screen.getByText('Sign in'));
  expect(await screen.findByRole('alert')).toHaveTextContent('offline');
});

test("findBy prints the screen once, into the error it ends with, and not into an onTimeout's", async () => {
  render(<Login />);
  jest.spyOn(screen, 'toJSON');
  const error = await screen.findByText('Nowhere', {}, { timeout: 200, interval: 20 }).catch((e) => e);
  expect(error.message).toMatch(/^Unable to find an element with text: Nowhere\n\n<View/);
  expect(screen.toJSON).toHaveBeenCalledTimes(1);
  const onTimeout = jest.fn((e) => new Error(`replaced: ${e.message}`));
  await expect(screen.findByText('Nowhere', {}, { timeout: 100, interval: 20, onTimeout })).rejects.toThrow(
    /^replaced: Unable to find an element with text: Nowhere$/,
  );
  expect(onTimeout).toHaveBeenCalledTimes(1);
});

test('fake timers: waitFor advances the clock, act runs a timer', async () => {
  jest.useFakeTimers();
  render(<Catalog />);
  expect(screen.getByTestId('status')).toHaveTextContent('Loading…');
  await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('Loaded'));
  screen.unmount();
  render(<Catalog />);
  act(() => {
    jest.advanceTimersByTime(500);
  });
  expect(screen.getByText('Loaded')).toBeTruthy();
});

test('fake timers: userEvent presses in virtual time', async () => {
  jest.useFakeTimers();
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
  render(<Catalog />);
  await user.press(screen.getByText('Apple'));
  expect(screen.getByText('Selected: Apple')).toBeTruthy();
  await user.longPress(screen.getByText('Apple'), { duration: 1000 });
  expect(screen.getByText('Selected: none')).toBeTruthy();
});

test("jest's legacy fake timers, then real ones: a TouchableOpacity's press still fades it", () => {
  // Legacy fake timers put back the timer functions the file's global had before React Native's
  // requestAnimationFrame was set: the press's fade (stopped with cancelAnimationFrame) threw on bridged only.
  const { Text, TouchableOpacity } = require('react-native');
  jest.useFakeTimers({ legacyFakeTimers: true });
  jest.useRealTimers();
  const onPress = jest.fn();
  render(
    <TouchableOpacity onPress={onPress}>
      <Text>Fade</Text>
    </TouchableOpacity>,
  );
  fireEvent.press(screen.getByText('Fade'));
  fireEvent.press(screen.getByText('Fade'));
  expect(onPress).toHaveBeenCalledTimes(2);
});

// RNTL's import under fake timers makes the fake clock a new one (its helpers/timers.js takes its timer functions
// with real timers: jest.useRealTimers(), then jest.useFakeTimers()), so what was set on the clock before is left
// there: jest's own timeout of each test, when an app's setupFiles faked the timers (react-native-paper's
// testSetup.js), which jest.runAllTimers() would otherwise run (its Dialog tests failed at once with "Exceeded
// timeout of 5000 ms"). The `pure` entry, as the full one registers a cleanup, which a test cannot.
test("RNTL's import under fake timers starts a new fake clock: a timer set before it never runs", () => {
  jest.useFakeTimers();
  const before = jest.fn();
  setTimeout(before, 10);
  jest.isolateModules(() => require('@testing-library/react-native/pure'));
  const after = jest.fn();
  setTimeout(after, 10);
  jest.runAllTimers();
  expect(before).not.toHaveBeenCalled();
  expect(after).toHaveBeenCalledTimes(1);
});

test('waitForElementToBeRemoved', async () => {
  render(<Catalog />);
  fireEvent.press(screen.getByText('More'));
  const details = screen.getByTestId('details');
  expect(details).toBeOnTheScreen();
  setTimeout(() => act(() => fireEvent.press(screen.getByText('Less'))), 20);
  await waitForElementToBeRemoved(() => screen.queryByTestId('details'));
  expect(details).not.toBeOnTheScreen();
});

test('waitFor: a check due before the timeout runs even when the app held the thread past both', async () => {
  // A slow render during waitFor's wait (a screen's first FlatList, its modules transformed on a cold cache; a loaded
  // machine) ends after the timeout: RNTL's interval timer, due before its timeout timer, checks first, and passes.
  const { Text } = require('react-native');
  function Slow() {
    const [done, setDone] = React.useState(false);
    React.useEffect(() => {
      const id = setTimeout(() => setDone(true), 20);
      return () => clearTimeout(id);
    }, []);
    if (done) {
      const until = Date.now() + 400;
      while (Date.now() < until);
    }
    return <Text>{done ? 'Done' : 'Loading'}</Text>;
  }
  render(<Slow />);
  await waitFor(() => expect(screen.getByText('Done')).toBeTruthy(), { timeout: 200 });
});

// A debounced load under fake timers: a timer resolves a promise whose `then` sets state. findBy and waitFor advance
// jest's clock inside act, and the promise's update came after it, while React's act environment was on: React warned
// "not wrapped in act". As RNTL's waitFor, the waits keep React's act environment off until they end.
test('fake timers: findBy and waitFor over a timer whose promise sets state warn nothing', async () => {
  jest.useFakeTimers();
  const errors = jest.spyOn(console, 'error');
  function Delayed() {
    const [text, setText] = React.useState('waiting');
    React.useEffect(() => {
      const timer = setTimeout(() => Promise.resolve('loaded').then(setText), 300);
      return () => clearTimeout(timer);
    }, []);
    return <Text>{text}</Text>;
  }
  const first = render(<Delayed />);
  expect(await screen.findByText('loaded')).toBeOnTheScreen();
  first.unmount();
  render(<Delayed />);
  await waitFor(() => expect(screen.getByText('loaded')).toBeOnTheScreen());
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

test('two findBy* awaited together log nothing (each ends in an act of its own, one after the other)', async () => {
  const error = jest.spyOn(console, 'error');
  render(
    <View>
      <Text>first</Text>
      <Text>second</Text>
    </View>,
  );
  const [first, second] = await Promise.all([screen.findByText('first'), screen.findByText('second')]);
  expect(first).toBeOnTheScreen();
  expect(second).toBeOnTheScreen();
  expect(error).not.toHaveBeenCalled();
  error.mockRestore();
});

// A module mocked in a test's body, after earlier tests read it through React Native's index
// (testshallpass/react-native-dropdownalert's Android tests: `jest.mock('react-native/Libraries/Utilities/Platform', …)`
// and a mocked StatusBar inside the test, then the component reads `Platform.OS` and `StatusBar.currentHeight` through
// the index). On React Native's mocks the index's getter requires at every read and gets the mock; bridged kept each
// getter's first answer (for speed), so the component still saw 'ios' and the real StatusBar. A module mocked while
// the file runs now puts the getters back.
import React from 'react';
import { Platform, StatusBar, Text } from 'react-native';
import { render, screen } from '@testing-library/react-native';

function Height() {
  return <Text>{`${Platform.OS} ${StatusBar.currentHeight ?? 'none'}`}</Text>;
}

test('the index as the app first reads it', () => {
  render(<Height />);
  expect(screen.getByText('ios none')).toBeTruthy();
});

test('a jest.mock in the test body, after the index was read', () => {
  jest.mock('react-native/Libraries/Utilities/Platform', () => ({ OS: 'android', select: (choices) => choices.android }));
  jest.mock('react-native/Libraries/Components/StatusBar/StatusBar', () => ({ currentHeight: 20 }));
  render(<Height />);
  expect(screen.getByText('android 20')).toBeTruthy();
});

test('jest.unmock of one of them, later in the file', () => {
  jest.unmock('react-native/Libraries/Components/StatusBar/StatusBar');
  expect(StatusBar.currentHeight).not.toBe(20);
  expect(Platform.OS).toBe('android');
});

// A fresh module-level store for each test: jest.resetModules(), then React, React Native and RNTL required afresh.
// React and React Native stay the ones bridged loaded (a second renderer's updates never reached the screen).
describe('jest.resetModules() before each test, its modules required afresh', () => {
  let rntl;
  let R;
  let RN;
  let store;
  beforeEach(() => {
    jest.resetModules();
    rntl = require('@testing-library/react-native/pure');
    R = require('react');
    RN = require('react-native');
    store = { count: 0 };
  });
  afterEach(() => rntl.cleanup());

  function Counter() {
    const [n, setN] = R.useState(store.count);
    return R.createElement(RN.Pressable, { accessibilityRole: 'button', onPress: () => setN((x) => x + 1) }, R.createElement(RN.Text, null, `count ${n}`));
  }

  test.each([1, 2])('a press updates the screen (test %i)', () => {
    const error = jest.spyOn(console, 'error');
    rntl.render(R.createElement(Counter));
    rntl.fireEvent.press(rntl.screen.getByText('count 0'));
    expect(rntl.screen.getByText('count 1')).toBeTruthy();
    rntl.act(() => {});
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
  });
});

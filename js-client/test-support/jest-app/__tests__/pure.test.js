// RNTL's `pure` entry: no automatic cleanup, the test cleans up itself.
import React from 'react';
import { Text } from 'react-native';
import { render, screen, cleanup } from '@testing-library/react-native/pure';

afterEach(() => cleanup());

test('pure render and a manual cleanup', () => {
  render(<Text>pure</Text>);
  expect(screen.getByText('pure')).toBeOnTheScreen();
});

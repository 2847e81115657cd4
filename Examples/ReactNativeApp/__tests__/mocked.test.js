// A module of the app mocked with jest.mock, as a team's tests mock one: the rest of the app renders around it.
import React from 'react';
import { render, screen } from '@testing-library/react-native';
import App from '../src/App';

jest.mock('../src/components/Counter', () => {
  const { Text: MockText } = require('react-native');
  return function MockCounter({ label }) {
    return <MockText>mocked counter for {label}</MockText>;
  };
});

test('the app renders with its Counter mocked', () => {
  render(<App />);
  expect(screen.getByText('mocked counter for Likes')).toBeOnTheScreen();
  expect(screen.getByPlaceholderText('What next?')).toBeOnTheScreen();
  expect(screen.queryByText('never pressed')).toBeNull();
});

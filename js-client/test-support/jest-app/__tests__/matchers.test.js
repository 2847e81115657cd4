// RNTL 12.4's matchers (through @testing-library/jest-native/extend-expect, the app's setupFilesAfterEnv).
import React from 'react';
import { View } from 'react-native';
import { render, screen, fireEvent } from '@testing-library/react-native';
import Login from '../src/Login';
import Catalog from '../src/Catalog';

test('the app setup files ran', () => {
  expect(global.__APP_SETUP_FILE_RAN__).toBeAppSetUp();
});

test('presence, text, value, visibility, emptiness', () => {
  render(<Catalog />);
  expect(screen.getByText('Apple')).toBeOnTheScreen();
  expect(screen.getByText('Apple')).toBeVisible();
  expect(screen.getByText('Hidden text', { includeHiddenElements: true })).not.toBeVisible();
  expect(screen.getByTestId('empty')).toBeEmptyElement();
  expect(screen.getByLabelText('Item Apple')).not.toBeEmptyElement();
  expect(screen.getByLabelText('Item Apple')).toHaveTextContent('Apple');
  expect(screen.getByLabelText('Item Apple')).toHaveTextContent(/app/i);
  expect(screen.getByLabelText('Item Apple')).toHaveAccessibleName('Item Apple');
  expect(screen.getByTestId('meter')).toHaveAccessibilityValue({ now: 3, max: 10 });
  expect(screen.getByTestId('meter')).toHaveAccessibleName('Volume');
  expect(screen.getByLabelText('Item Apple')).toContainElement(screen.getByText('Apple'));
  expect(screen.getByLabelText('Item Apple')).not.toContainElement(screen.getByText('Banana'));
});

test('states: disabled, enabled, checked, selected, expanded, busy', () => {
  render(<Catalog />);
  const apple = screen.getByLabelText('Item Apple');
  expect(apple).not.toBeChecked();
  fireEvent.press(apple);
  expect(screen.getByLabelText('Item Apple')).toBeChecked();
  expect(screen.getByLabelText('Item Apple')).toBeSelected();
  const more = screen.getByRole('button', { name: 'More' });
  expect(more).not.toBeExpanded();
  fireEvent.press(more);
  expect(screen.getByRole('button', { name: 'Less' })).toBeExpanded();
  screen.unmount();
  render(<Login />);
  expect(screen.getByTestId('submit')).toBeDisabled();
  expect(screen.getByText('Sign in')).toBeDisabled();
  expect(screen.getByTestId('locked')).toBeDisabled();
  expect(screen.getByTestId('name')).toBeEnabled();
  fireEvent.changeText(screen.getByTestId('name'), 'x');
  expect(screen.getByTestId('submit')).toBeEnabled();
  expect(screen.getByTestId('submit')).not.toBeBusy();
  expect(screen.getByTestId('name')).toHaveDisplayValue('x');
  expect(screen.getByTestId('pin')).toHaveProp('maxLength', 4);
  expect(screen.getByTestId('submit')).toHaveStyle({ backgroundColor: 'blue' });
});

test('a matcher fails where it should', () => {
  render(<View testID="v" />);
  expect(() => expect(screen.getByTestId('v')).not.toBeOnTheScreen()).toThrow();
  expect(() => expect(screen.getByTestId('v')).toHaveTextContent('x')).toThrow();
});

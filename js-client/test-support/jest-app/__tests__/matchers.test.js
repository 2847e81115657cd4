// RNTL 12.4's matchers: its extend-expect, imported here, registers them over jest-native's (the app's
// setupFilesAfterEnv registers those; toHaveTextContent and toBeEmptyElement are the two whose rules differ).
import React from 'react';
import { Pressable, Text, View } from 'react-native';
import { render, screen, fireEvent } from '@testing-library/react-native';
import '@testing-library/react-native/extend-expect';
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

test("toBeEmptyElement counts host children only: a Text's string is none, a nested Text is one", () => {
  render(
    <View>
      <Text testID="plain">Hello</Text>
      <Text testID="nested">
        a<Text>b</Text>
      </Text>
    </View>,
  );
  expect(screen.getByTestId('plain')).toBeEmptyElement();
  expect(screen.getByTestId('nested')).not.toBeEmptyElement();
});

test("toHaveStyle and toHaveProp compare with jest's equality, asymmetric matchers included", () => {
  render(<View testID="v" accessibilityHint="Opens the menu" style={[{ width: 10 }, { transform: [{ rotate: '90deg' }] }]} />);
  const view = screen.getByTestId('v');
  expect(view).toHaveStyle({ width: expect.any(Number), transform: [{ rotate: '90deg' }] });
  expect(view).not.toHaveStyle({ width: expect.any(String) });
  expect(view).toHaveProp('accessibilityHint', expect.stringContaining('menu'));
  expect(view).not.toHaveProp('accessibilityHint', expect.stringContaining('tab'));
});

test('toBeChecked and toBePartiallyChecked refuse an element of no role that can be checked', () => {
  render(
    <View>
      <View testID="plain" accessible accessibilityState={{ checked: true }} />
      <View testID="radio" accessible accessibilityRole="radio" accessibilityState={{ checked: true }} />
      <View testID="box" accessible accessibilityRole="checkbox" accessibilityState={{ checked: 'mixed' }} />
    </View>,
  );
  expect(() => expect(screen.getByTestId('plain')).toBeChecked()).toThrow('works only on accessibility elements with "checkbox" or "radio" role');
  expect(screen.getByTestId('radio')).toBeChecked();
  expect(() => expect(screen.getByTestId('radio')).toBePartiallyChecked()).toThrow('works only on accessibility elements with "checkbox" role');
  expect(screen.getByTestId('box')).toBePartiallyChecked();
  expect(screen.getByTestId('box')).not.toBeChecked();
});

test('toBeVisible: a view whose sibling is modal for accessibility is not visible', () => {
  render(
    <View>
      <View testID="behind" />
      <View accessibilityViewIsModal>
        <Text>Dialog</Text>
      </View>
    </View>,
  );
  expect(screen.getByTestId('behind', { includeHiddenElements: true })).not.toBeVisible();
  expect(screen.getByText('Dialog')).toBeVisible();
});

test('toContainElement refuses what is no element, and takes null', () => {
  render(<View testID="v" />);
  expect(screen.getByTestId('v')).not.toContainElement(null);
  expect(() => expect(screen.getByTestId('v')).not.toContainElement({ name: 'no element' })).toThrow();
});

test("the accessible name: an empty label is none, aria-labelledby (a list on React Native 0.72's View) names the view, and a nested Text has the role text", () => {
  render(
    <View>
      <Pressable accessibilityLabel="" testID="save" onPress={() => {}}>
        <Text>Save</Text>
      </Pressable>
      <Text nativeID="plan">Family plan</Text>
      <View accessible accessibilityRole="radio" aria-labelledby="plan" testID="family" />
      <Text>
        Total: <Text>$42</Text>
      </Text>
    </View>,
  );
  expect(screen.getByTestId('save')).toHaveAccessibleName('Save');
  expect(screen.getByLabelText('Family plan')).toBe(screen.getByTestId('family'));
  expect(screen.getByTestId('family')).toHaveAccessibleName('Family plan');
  expect(screen.getAllByRole('text').length).toBeGreaterThanOrEqual(3);
  // The outer Text is named by the inner one too (RNTL's name: a text query within the element).
  expect(screen.getAllByRole('text', { name: '$42' })).toHaveLength(2);
});

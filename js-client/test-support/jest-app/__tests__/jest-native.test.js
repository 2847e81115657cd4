// @testing-library/jest-native 5's own matchers, which its extend-expect registers beside RNTL 12.4's names (the app's
// setupFilesAfterEnv): toHaveAccessibilityState and toBeEmpty (toBeEmptyElement's old name, warned of once), its own
// rules for toHaveTextContent (a part of the text) and toBeEmptyElement (children given); its
// legacy-extend-expect's `legacy_` names; and a matcher imported by name, then given to expect.extend.
import React from 'react';
import { Pressable, Text, TextInput, View } from 'react-native';
import { render, screen, fireEvent } from '@testing-library/react-native';
import '@testing-library/jest-native/extend-expect';
import '@testing-library/jest-native/legacy-extend-expect';
import { toHaveAccessibilityState } from '@testing-library/jest-native';
import Catalog from '../src/Catalog';

test('toHaveAccessibilityState: the states the element says, the platforms\' defaults for the others', () => {
  render(<Catalog />);
  const apple = screen.getByLabelText('Item Apple');
  expect(apple).toHaveAccessibilityState({ checked: false, selected: false });
  expect(apple).toHaveAccessibilityState({ disabled: false, busy: false });
  expect(apple).not.toHaveAccessibilityState({ checked: true });
  fireEvent.press(apple);
  expect(screen.getByLabelText('Item Apple')).toHaveAccessibilityState({ checked: true, selected: true });
  const more = screen.getByRole('button', { name: 'More' });
  expect(more).toHaveAccessibilityState({ expanded: false });
  expect(more).not.toHaveAccessibilityState({ expanded: true });
  expect(() => expect(more).toHaveAccessibilityState({ expanded: true })).toThrow(/accessibility state/);
});

test('a disabled Pressable has the state disabled', () => {
  render(
    <Pressable disabled onPress={() => {}} accessibilityRole="button">
      <Text>Send</Text>
    </Pressable>,
  );
  expect(screen.getByRole('button')).toHaveAccessibilityState({ disabled: true });
});

test('toBeEmpty is toBeEmptyElement, and says once that it was renamed', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  render(
    <View testID="outer">
      <View testID="empty" />
    </View>,
  );
  expect(screen.getByTestId('empty')).toBeEmpty();
  expect(screen.getByTestId('outer')).not.toBeEmpty();
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0][0]).toMatch(/"toBeEmpty\(\)" matcher has been renamed to "toBeEmptyElement\(\)"/);
  warn.mockRestore();
});

test("legacy-extend-expect's legacy_ names, and a matcher imported by name", () => {
  expect.extend({ toHaveAccessibilityState });
  render(<Catalog />);
  expect(screen.getByText('Apple')).legacy_toBeOnTheScreen();
  expect(screen.getByLabelText('Item Apple')).legacy_toHaveAccessibilityState({ checked: false });
  expect(screen.getByLabelText('Item Apple')).legacy_toHaveTextContent('Apple');
  expect(screen.getByTestId('empty')).legacy_toBeEmptyElement();
  expect(screen.getByLabelText('Item Apple')).toHaveAccessibilityState({ selected: false });
});

// jest-native's own rules where RNTL 12.4's differ (its extend-expect, imported above, as an app's setup imports it;
// React Native Testing Library's import, which comes after, leaves them): a part of the text, whitespace runs made
// one; empty when no children were given (a Text's string is one, where RNTL counts host children only).
test("jest-native's toHaveTextContent matches a part of the text, and its toBeEmptyElement asks for children", () => {
  render(
    <View>
      <Text testID="count">Count:   5 items</Text>
      <Text testID="blank">{''}</Text>
    </View>,
  );
  expect(screen.getByTestId('count')).toHaveTextContent('5');
  expect(screen.getByTestId('count')).toHaveTextContent('Count: 5 items');
  expect(screen.getByTestId('count')).toHaveTextContent(/^Count/);
  expect(screen.getByTestId('count')).not.toHaveTextContent('6');
  expect(screen.getByTestId('count')).not.toBeEmptyElement();
  expect(screen.getByTestId('blank')).toBeEmptyElement();
});

// jest-native's toHaveStyle and toHaveProp take any instance react-test-renderer gives, a component's too (an
// element's `.children`, as react-native-paper's Dialog.Actions test reads its buttons' margins), and read its props;
// RNTL 12.4's take host elements only.
test("jest-native's toHaveStyle and toHaveProp read a component's instance (an element's children)", () => {
  const Badge = ({ style, label }) => <View style={style} accessibilityLabel={label} />;
  render(
    <View testID="row">
      <Badge style={[{ margin: 10 }, { marginRight: 8 }]} label="first" />
    </View>,
  );
  const [badge] = screen.getByTestId('row').children;
  expect(badge.type).toBe(Badge);
  expect(badge).toHaveStyle({ margin: 10, marginRight: 8 });
  expect(badge).not.toHaveStyle({ margin: 0 });
  expect(badge).toHaveProp('label', 'first');
  expect(badge).not.toHaveProp('testID');
});

// A failing toHaveProp names the values as jest-native's message does (jest's stringify): an expected handler read
// "= undefined, it has undefined" (JSON.stringify drops a function; corpus 38: DariuDev/ApplicationDesignSystem's Text
// test, toHaveProp('onPress', onPressMock) on a Text's host, which has no onPress on a phone).
test("a failing toHaveProp's message prints the function it expected and the one the element has", () => {
  render(<View testID="box" onLayout={function measured() {}} />);
  const box = screen.getByTestId('box');
  expect(() => expect(box).toHaveProp('onLayout', function expected() {})).toThrow(/\[Function expected\][\s\S]*\[Function measured\]/);
});

// jest-native's toBeDisabled and toBeEnabled read a `disabled` prop of the components above the element too (those
// of its DISABLE_TYPES' names: an app's own `Button` that leaves `disabled` off what it renders disables its text),
// and its toBeVisible does not hide what a sibling modal for accessibility hides; RNTL 12.4's read the host views,
// and hide it (corpus 47's probe of jest-native's rules: both passed under React Native's preset with jest-native
// 5.4.3 and failed on bridged).
test("jest-native's toBeDisabled reads its components' disabled prop, and its toBeVisible no sibling modal", () => {
  function Button({ title, disabled, onPress }) {
    return (
      <Pressable onPress={disabled ? undefined : onPress}>
        <Text>{title}</Text>
      </Pressable>
    );
  }
  render(
    <View>
      <Button title="Save" disabled />
      <Button title="Back" />
    </View>,
  );
  expect(screen.getByText('Save')).toBeDisabled();
  expect(screen.getByText('Save')).not.toBeEnabled();
  expect(screen.UNSAFE_getAllByType(Button)[0]).toBeDisabled();
  expect(screen.UNSAFE_getAllByType(Button)[1]).toBeEnabled();
  expect(screen.getByText('Back')).toBeEnabled();
  expect(screen.getByText('Back')).not.toBeDisabled();
  render(
    <View>
      <View>
        <Text testID="behind">Behind</Text>
      </View>
      <View accessibilityViewIsModal>
        <Text>Dialog</Text>
      </View>
    </View>,
  );
  expect(screen.queryByTestId('behind')).toBeNull();
  expect(screen.getByTestId('behind', { includeHiddenElements: true })).toBeVisible();
});

// A text field's value is no string child: neither jest-native's getTextContent nor RNTL's reads it (bridged read the
// field's native text into its container's text content: "Emaila@b.co").
test("toHaveTextContent leaves out a text field's value", () => {
  render(
    <View testID="form">
      <Text>Email</Text>
      <TextInput value="a@b.co" onChangeText={() => {}} />
    </View>,
  );
  expect(screen.getByTestId('form')).toHaveTextContent('Email');
  expect(screen.getByTestId('form')).not.toHaveTextContent('a@b.co');
});

// jest-native's matchers take any instance: a composite's (UNSAFE_getByType, UNSAFE_root) is read as jest-native reads
// it, its text the strings below it, on the screen when its tree's top is a screen's, containing what its tree has
// (bridged refused it: "received is not an element a query returned").
test("jest-native's matchers take a composite's instance", () => {
  const Card = ({ title }) => (
    <View style={{ padding: 4 }}>
      <Text>{title}</Text>
      <Pressable>
        <Text>Go</Text>
      </Pressable>
    </View>
  );
  render(<Card title="Hello" />);
  const card = screen.UNSAFE_getByType(Card);
  expect(card).toHaveTextContent('HelloGo');
  expect(screen.UNSAFE_root).toHaveTextContent('HelloGo');
  expect(card).toBeOnTheScreen();
  expect(card).toBeVisible();
  expect(card).toContainElement(screen.getByText('Go'));
  expect(card).not.toHaveTextContent('Bye');
});

test("jest-native's matchers take toJSON()'s nodes of host types, as jest-native does", () => {
  const { toJSON } = render(
    <View style={{ paddingTop: 44, flex: 1 }} testID="page">
      <Text>Hello</Text>
    </View>,
  );
  expect(toJSON()).toHaveStyle({ paddingTop: 44 });
  expect(toJSON()).toHaveProp('testID', 'page');
  expect(screen.toJSON()).toHaveTextContent('Hello');
  expect(toJSON()).toBeVisible();
  expect(toJSON()).not.toHaveStyle({ paddingTop: 20 });
});

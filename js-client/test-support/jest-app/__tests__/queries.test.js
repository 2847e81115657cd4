// Every query kind and its options, as React Native Testing Library 12 documents them.
import React from 'react';
import { Pressable, Text, View } from 'react-native';
import { render, screen, within, fireEvent, isHiddenFromAccessibility } from '@testing-library/react-native';
import Login from '../src/Login';
import Catalog from '../src/Catalog';

test('screen before render says so', () => {
  expect(() => screen.getByText('Welcome')).toThrow('`render` method has not been called');
});

test('ByText, ByTestId, ByPlaceholderText, ByDisplayValue, ByLabelText, ByHintText, ByRole', () => {
  render(<Login />);
  expect(screen.getByText('Welcome')).toBeTruthy();
  expect(screen.getByText('welc', { exact: false })).toBeTruthy();
  expect(screen.getByText(/^Sign/)).toBeTruthy();
  expect(screen.getByText('  Welcome ', { normalizer: (t) => t.trim() })).toBeTruthy();
  expect(screen.getByTestId('name').props.placeholder).toBe('Your name');
  expect(screen.getByPlaceholderText('PIN').props.maxLength).toBe(4);
  expect(screen.getByDisplayValue('fixed')).toBeTruthy();
  expect(screen.getByLabelText('Name')).toBe(screen.getByTestId('name'));
  expect(screen.getByHintText('Type your name')).toBe(screen.getByTestId('name'));
  expect(screen.getByRole('header', { name: 'Welcome' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Sign in', disabled: true })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Sign in', disabled: false })).toBeNull();
  expect(screen.getAllByRole('switch')).toHaveLength(1);
  expect(screen.queryByText('Nope')).toBeNull();
  expect(screen.queryAllByText('Nope')).toEqual([]);
  expect(() => screen.getByText('Nope')).toThrow('Unable to find an element with text: Nope');
});

test('many, hidden elements, within', () => {
  render(<Catalog />);
  expect(screen.getAllByRole('checkbox')).toHaveLength(3);
  expect(() => screen.getByRole('checkbox')).toThrow(/Found multiple elements/);
  expect(screen.queryByText('Hidden text')).toBeNull();
  expect(isHiddenFromAccessibility(screen.getByText('Hidden text', { includeHiddenElements: true }))).toBe(true);
  expect(isHiddenFromAccessibility(screen.getByText('Apple'))).toBe(false);
  expect(screen.queryByText('Not displayed')).toBeNull();
  expect(screen.getByText('Not displayed', { hidden: true })).toBeTruthy();
  const banana = screen.getByLabelText('Item Banana');
  expect(within(banana).getByText('Banana')).toBeTruthy();
  expect(within(banana).queryByText('Apple')).toBeNull();
  expect(screen.getByRole('checkbox', { name: 'Item Apple', checked: false })).toBeTruthy();
});

test('elements are host elements: props, type, parent, children', () => {
  render(<Login />);
  const name = screen.getByTestId('name');
  expect(name.type).toBe('TextInput');
  expect(typeof name.props.onChangeText).toBe('function');
  const title = screen.getByText('Welcome');
  expect(title.type).toBe('Text');
  expect(title.children).toEqual(['Welcome']);
  expect(title.props.children).toBe('Welcome');
  // As react-test-renderer's (RNTL 12's): a host element's parent is the nearest instance above, a component's too
  // (the Text component above the host text, then the Pressable's host view, then View and Pressable components).
  const signIn = screen.getByText('Sign in');
  expect(typeof signIn.parent.type).not.toBe('string');
  expect(signIn.parent.props.children).toBe('Sign in');
  expect(signIn.parent.parent).toBe(screen.getByTestId('submit'));
  expect(signIn.parent.parent.parent.parent.props.testID).toBe('submit');
  expect(signIn.parent.parent.parent.parent.props.accessibilityRole).toBe('button');
  // A host view's children are the instances below it: the Text component (and Pressable's debug view, a component
  // that renders nothing), whose child is the host text.
  expect(screen.getByTestId('submit').children[0]).toBe(signIn.parent);
  expect(signIn.parent.children).toEqual([signIn]);
  // Above what render was given there is nothing (not React Native's AppContainer).
  let top = signIn;
  while (top.parent) top = top.parent;
  expect(top).toBe(screen.UNSAFE_root);
  expect(screen.getByTestId('submit').native.component).toBe('RCTView');
});

test('findBy waits for what a timer brings', async () => {
  render(<Catalog />);
  expect(await screen.findByText('Loaded')).toBeTruthy();
});

test('elements read the current props after commits that re-render some views and leave others (memo rows)', () => {
  const Row = React.memo(({ id, onPick }) => (
    <Pressable testID={`row-${id}`} accessibilityLabel={`row ${id}`} onPress={() => onPick(id)}>
      <Text>{id}</Text>
    </Pressable>
  ));
  function List() {
    const [picked, setPicked] = React.useState([]);
    const [rows, setRows] = React.useState(['a', 'b', 'c']);
    const onPick = React.useCallback((id) => setPicked((p) => [...p, id]), []);
    return (
      <View testID="list" accessibilityLabel={`${rows.length} rows, picked ${picked.join(',')}`}>
        <Pressable testID="drop" onPress={() => setRows((r) => r.slice(1))}><Text>drop</Text></Pressable>
        <Pressable testID="add" onPress={() => setRows((r) => [...r, `n${r.length}`])}><Text>add</Text></Pressable>
        {rows.map((id) => <Row key={id} id={id} onPick={onPick} />)}
      </View>
    );
  }
  render(<List />);
  fireEvent.press(screen.getByTestId('row-b'));
  fireEvent.press(screen.getByTestId('row-c'));
  expect(screen.getByTestId('list').props.accessibilityLabel).toBe('3 rows, picked b,c');
  fireEvent.press(screen.getByText('drop'));
  expect(screen.queryByTestId('row-a')).toBeNull();
  fireEvent.press(screen.getByText('add'));
  fireEvent.press(screen.getByTestId('row-n2'));
  // Rows React left alone across those commits still answer with their props, and their texts' parents are theirs.
  expect(screen.getByTestId('row-c').props.accessibilityLabel).toBe('row c');
  expect(screen.getByText('c').parent.parent.props.testID).toBe('row-c');
  fireEvent.press(screen.getByTestId('row-c'));
  expect(screen.getByTestId('list').props.accessibilityLabel).toBe('3 rows, picked b,c,n2,c');
  expect(screen.getAllByLabelText(/^row /).map((e) => e.props.testID)).toEqual(['row-b', 'row-c', 'row-n2']);
});

// RNTL's hidden rules read the element's props on either platform: importantForAccessibility (Android's, which iOS's
// view config keeps from the native view) hides a subtree, and a sibling that is modal for accessibility hides the
// others, for the queries, within and isHiddenFromAccessibility alike; no element is hidden.
test('importantForAccessibility no-hide-descendants and a modal sibling hide, for queries and isHiddenFromAccessibility', () => {
  render(
    <View>
      <View testID="android-only" importantForAccessibility="no-hide-descendants"><Text>not for a screen reader</Text></View>
      <View>
        <Text>covered</Text>
        <View accessibilityViewIsModal><Text>dialog</Text></View>
      </View>
    </View>,
  );
  expect(screen.queryByText('not for a screen reader')).toBeNull();
  expect(isHiddenFromAccessibility(screen.getByText('not for a screen reader', { includeHiddenElements: true }))).toBe(true);
  expect(within(screen.getByTestId('android-only', { includeHiddenElements: true })).queryByText('not for a screen reader')).toBeNull();
  expect(screen.queryByText('covered')).toBeNull();
  expect(isHiddenFromAccessibility(screen.getByText('covered', { includeHiddenElements: true }))).toBe(true);
  expect(isHiddenFromAccessibility(screen.getByText('dialog'))).toBe(false);
  expect(isHiddenFromAccessibility(null)).toBe(true);
});

// What hides a match is read along its ancestors: one several levels up that hides itself, a modal sibling of an
// ancestor (not of the match), and the matches in tree order, hidden ones left out unless asked for.
test('a match is hidden by an ancestor several levels up, or by a modal sibling of one; the others are found in order', () => {
  render(
    <View>
      <Text>row 1</Text>
      <View style={{ display: 'none' }}>
        <View>
          <View><Text>row 2</Text></View>
        </View>
      </View>
      <View>
        <View>
          <View><Text>row 3</Text></View>
        </View>
        <View accessibilityViewIsModal testID="dialog">
          <View><Text>row 4</Text></View>
        </View>
      </View>
      <Text>row 5</Text>
    </View>,
  );
  expect(screen.getAllByText(/^row /).map((e) => e.props.children)).toEqual(['row 1', 'row 4', 'row 5']);
  expect(screen.getAllByText(/^row /, { includeHiddenElements: true }).map((e) => e.props.children)).toEqual([
    'row 1', 'row 2', 'row 3', 'row 4', 'row 5',
  ]);
  expect(screen.queryByText('row 3')).toBeNull();
  expect(isHiddenFromAccessibility(screen.getByText('row 2', { includeHiddenElements: true }))).toBe(true);
  expect(within(screen.getByTestId('dialog')).getByText('row 4')).toBeTruthy();
  expect(within(screen.getByTestId('dialog')).queryByText('row 3')).toBeNull();
});

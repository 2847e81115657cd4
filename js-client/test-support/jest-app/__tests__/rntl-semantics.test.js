// RNTL 12.4's documented semantics that its own test suite checks, as they hold under preset: 'bridged-client':
// which Text a text query returns, what a query's root is, how fireEvent finds its handler, what screen is.
import React from 'react';
import { FlatList, Pressable, ScrollView, Text, TextInput, TouchableOpacity, View } from 'react-native';
import { configure, fireEvent, getDefaultNormalizer, render, screen, userEvent, waitFor, within } from '@testing-library/react-native';

afterEach(() => configure({ defaultIncludeHiddenElements: false }));

test('a text query returns the deepest Text whose content matches', () => {
  render(
    <Text testID="outer">
      <Text testID="inner">Hello World</Text>
    </Text>,
  );
  expect(screen.getByText('Hello World').props.testID).toBe('inner');
  expect(screen.queryAllByText('Hello World')).toHaveLength(1);
});

test('a Text made of nested Texts matches as a whole', () => {
  render(
    <Text testID="outer">
      <Text>Hello</Text> <Text>World</Text>
    </Text>,
  );
  expect(screen.getByText('Hello World').props.testID).toBe('outer');
});

test("queries cover the rendered element, not React Native's root containers", () => {
  render(
    <View>
      <Pressable accessibilityState={{ disabled: false }} testID="enabled" />
      <Pressable disabled testID="disabled" />
    </View>,
  );
  expect(screen.getAllByA11yState({ disabled: true }).map((e) => e.props.testID)).toEqual(['disabled']);
  expect(screen.getByAccessibilityState({ disabled: true }).props.testID).toBe('disabled');
  expect(screen.root.type).toBe('View');
});

test("errors read as RNTL's, with the screen as RNTL prints it", () => {
  render(<View accessibilityRole="button" testID="box" style={{ display: 'none' }} />);
  expect(() => screen.getByText('nothing')).toThrow('Unable to find an element with text: nothing');
  expect(() => screen.getByRole('button', { disabled: true })).toThrow('Unable to find an element with role: "button", disabled state: true');
  expect(() => screen.getByA11yValue({ min: 1 })).toThrow('Unable to find an element with min value: 1');
  expect(() => screen.getByText('nothing')).toThrow(/<View\n\s+accessibilityRole="button"/);
});

test('ByLabelText follows accessibilityLabelledBy to the text of the view it names', () => {
  render(
    <View>
      <Text nativeID="label">Email address</Text>
      <View testID="field" accessibilityLabelledBy="label" />
    </View>,
  );
  expect(screen.getByLabelText('Email address').props.testID).toBe('field');
});

test('getDefaultNormalizer is exported and configurable', () => {
  render(<Text testID="t">{'  Hello   World  '}</Text>);
  expect(screen.getByText('  Hello   World  ', { normalizer: getDefaultNormalizer({ trim: false, collapseWhitespace: false }) }).props.testID).toBe('t');
});

test('within an element of the second of two renders queries that render', () => {
  render(
    <View testID="first">
      <Text>one</Text>
    </View>,
  );
  render(
    <View testID="second">
      <Text>two</Text>
    </View>,
  );
  expect(within(screen.getByTestId('second')).getByText('two')).toBeTruthy();
  expect(within(screen.getByTestId('second')).queryByText('one')).toBeNull();
});

test('screen is the last render result', () => {
  const result = render(<Text>one</Text>);
  expect(screen).toBe(result);
});

test("render's result has RNTL 12's container, which throws, and is left out when the result is spread", () => {
  const result = render(<Text>one</Text>);
  expect(() => result.container).toThrow("'container' property has been renamed to 'UNSAFE_root'.");
  expect(Object.keys({ ...result })).not.toContain('container');
  expect(result.root).toBeTruthy();
});

test('fireEvent calls a custom event handler by its prop name, with its arguments', () => {
  const handlePress = jest.fn();
  const Custom = ({ handlePress: onIt }) => (
    <View handlePress={onIt}>
      <Text>custom</Text>
    </View>
  );
  render(<Custom handlePress={handlePress} />);
  fireEvent(screen.getByText('custom'), 'handlePress', 'one', 'two');
  expect(handlePress).toHaveBeenCalledWith('one', 'two');
});

// callstack/react-native-paper's Searchbar: fireEvent(getByTestId('search-bar-icon-wrapper').props.children,
// 'onPress'), a React element, whose own prop RNTL calls (it reads props and parent); bridged refused it as no
// element a query returned.
test('fireEvent given a React element (an element\'s props.children) calls its own prop, as RNTL does', () => {
  const onPress = jest.fn(() => 'pressed');
  const onChangeText = jest.fn();
  function Icon() {
    return <Text>icon</Text>;
  }
  render(
    <View testID="wrapper">
      <Icon onPress={onPress} onChangeText={onChangeText} />
    </View>,
  );
  const icon = screen.getByTestId('wrapper').props.children;
  expect(fireEvent(icon, 'onPress', 'a')).toBe('pressed');
  fireEvent.press(icon);
  fireEvent.changeText(icon, 'abc');
  expect(onPress.mock.calls).toEqual([['a'], []]);
  expect(onChangeText.mock.calls).toEqual([['abc']]);
});

test('no press reaches a Pressable under pointerEvents none or box-only, as none would on a phone', () => {
  const onPress = jest.fn();
  render(
    <View>
      <View pointerEvents="none">
        <Pressable onPress={onPress}>
          <Text>none</Text>
        </Pressable>
      </View>
      <View pointerEvents="box-only">
        <Pressable onPress={onPress}>
          <Text>box-only</Text>
        </Pressable>
      </View>
      <View pointerEvents="box-none">
        <Pressable onPress={onPress}>
          <Text>box-none</Text>
        </Pressable>
      </View>
    </View>,
  );
  fireEvent.press(screen.getByText('none'));
  fireEvent(screen.getByText('none'), 'onPress');
  fireEvent.press(screen.getByText('box-only'));
  expect(onPress).not.toHaveBeenCalled();
  fireEvent.press(screen.getByText('box-none'));
  expect(onPress).toHaveBeenCalledTimes(1);
});

test("a press carries the given page coordinates natively, and its onPress gets the data given, as RNTL's", () => {
  // The touch is a phone's, at the data's coordinates (the touchable's onPressIn gets React Native's event); the
  // handler RNTL finds gets what the test gave, as RNTL documents fireEvent's data ("passed to the event handler"):
  // `fireEvent.press(card, eventData)` then `toHaveBeenCalledWith(eventData)` (corpus 38's DariuDev design system,
  // 16 tests; corpus 56's Datadog SDK, 8, whose tracking reads the given event's `_targetInst`). Given no data,
  // onPress gets React Native's press event, as on a phone.
  const onPressIn = jest.fn();
  // What the handler was given, read as it runs (React Native's pooled event is released after).
  const onPress = jest.fn((event) => typeof event?.nativeEvent?.timestamp);
  render(
    <TouchableOpacity onPressIn={(event) => onPressIn(event.nativeEvent.pageX, event.nativeEvent.pageY)} onPress={onPress}>
      <Text>at</Text>
    </TouchableOpacity>,
  );
  const data = { nativeEvent: { pageX: 20, pageY: 30 }, _targetInst: { memoizedProps: { accessibilityLabel: 'at' } } };
  fireEvent.press(screen.getByText('at'), data);
  expect(onPressIn).toHaveBeenCalledWith(20, 30);
  expect(onPress).toHaveBeenCalledWith(data);
  fireEvent.press(screen.getByText('at'));
  expect(onPress.mock.results.map((result) => result.value)).toEqual(['undefined', 'number']);
});

test('a non-editable text field takes no focus or typing, and still lays out', () => {
  const onFocus = jest.fn();
  const onChangeText = jest.fn();
  const onLayout = jest.fn();
  render(<TextInput testID="field" editable={false} onFocus={onFocus} onChangeText={onChangeText} onLayout={onLayout} />);
  fireEvent(screen.getByTestId('field'), 'focus');
  fireEvent.changeText(screen.getByTestId('field'), 'typed');
  fireEvent(screen.getByTestId('field'), 'layout', { nativeEvent: { layout: { width: 1, height: 1 } } });
  expect(onFocus).not.toHaveBeenCalled();
  expect(onChangeText).not.toHaveBeenCalled();
  expect(onLayout).toHaveBeenCalledWith({ nativeEvent: { layout: { width: 1, height: 1 } } });
});

// After the non-editable field's test: the file's first TextInput (React Native's module, its first native field) is
// that test's cost, as before this one was added.
test("a press on a view whose pointerEvents let no touch reach it is the touchable's around it, as a finger's", async () => {
  const onRow = jest.fn();
  const onInner = jest.fn();
  const onOuter = jest.fn();
  render(
    <View>
      <TouchableOpacity onPress={onRow}>
        <TextInput pointerEvents="none" editable={false} value="task" />
      </TouchableOpacity>
      <Pressable onPress={onOuter}>
        <Pressable testID="inner" pointerEvents="none" onPress={onInner}>
          <Text>inner</Text>
        </Pressable>
      </Pressable>
    </View>,
  );
  // The field's own responder (React Native's TextInput answers onStartShouldSetResponder) never sees the finger.
  fireEvent.press(screen.getByDisplayValue('task'));
  expect(onRow).toHaveBeenCalledTimes(1);
  fireEvent.press(screen.getByText('inner'));
  await userEvent.press(screen.getByTestId('inner'));
  expect(onInner).not.toHaveBeenCalled();
  expect(onOuter).toHaveBeenCalledTimes(2);
});

test("a FlatList's own events fire through its scroll view, as on React Native's mocks", () => {
  const onEndReached = jest.fn();
  render(<FlatList testID="list" data={['a']} renderItem={({ item }) => <Text>{item}</Text>} onEndReached={onEndReached} />);
  fireEvent(screen.getByTestId('list'), 'onEndReached');
  expect(onEndReached).toHaveBeenCalled();
});

test('under fake timers, a press on a Pressable inside a ScrollView reaches it from the first frame', async () => {
  jest.useFakeTimers();
  try {
    const onPress = jest.fn();
    const user = userEvent.setup();
    render(
      <ScrollView>
        <Pressable onPress={onPress}>
          <Text>in a scroll view</Text>
        </Pressable>
      </ScrollView>,
    );
    await user.press(screen.getByText('in a scroll view'));
    expect(onPress).toHaveBeenCalledTimes(1);
  } finally {
    jest.useRealTimers();
  }
});

test('waitFor returns after the updates the app queued are applied', async () => {
  function Apple({ onPress }) {
    const [color, setColor] = React.useState('green');
    const [synced, setSynced] = React.useState(color);
    React.useEffect(() => {
      Promise.resolve('red').then(setColor);
    }, []);
    React.useEffect(() => setSynced(color), [color]);
    return (
      <Pressable testID="root" onPress={() => onPress(synced)}>
        <Text>{color}</Text>
      </Pressable>
    );
  }
  const onPress = jest.fn();
  render(<Apple onPress={onPress} />);
  await waitFor(() => screen.getByTestId('root'));
  fireEvent.press(screen.getByTestId('root'));
  expect(onPress).toHaveBeenCalledWith('red');
});

test('waitFor checks until its timeout as RNTL does with real timers', async () => {
  const expectation = jest.fn(() => {
    throw new Error('not yet');
  });
  await expect(waitFor(expectation, { timeout: 400, interval: 200 })).rejects.toThrow('not yet');
  expect(expectation).toHaveBeenCalledTimes(2);
});

test("debug logs its message as an argument of its own, over the configured defaultDebugOptions, and says debug('message') is deprecated", () => {
  const log = jest.spyOn(console, 'log').mockImplementation(() => {});
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    configure({ defaultDebugOptions: { mapProps: ({ style, ...props }) => props } });
    render(<View testID="box" style={{ width: 10 }} />);
    screen.debug({ message: 'Options' });
    screen.debug('Text');
    expect(log.mock.calls.map((call) => call[0])).toEqual(['Options\n\n', 'Text\n\n']);
    for (const call of log.mock.calls) {
      expect(call[1]).toContain('testID');
      expect(call[1]).not.toContain('style');
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/debug\("message"\) is deprecated/);
  } finally {
    configure({ defaultDebugOptions: undefined });
    log.mockRestore();
    warn.mockRestore();
  }
});

test('waitFor rejects with an Error, given to onTimeout, where the expectation threw something else', async () => {
  const onTimeout = jest.fn();
  let caught;
  try {
    await waitFor(() => {
      throw 'not yet';
    }, { timeout: 50, onTimeout });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  expect(caught.message).toBe('not yet');
  expect(onTimeout).toHaveBeenCalledWith(caught);
});

// RNTL 12.4's findBy*: a wait's timeout or interval given among the query's options (the second argument) still
// counts, with its deprecation warning; an onTimeout there is no wait option (only the third argument's is).
test("findBy*'s wait options in its second argument count, with RNTL's warning; an onTimeout there does not", async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  render(<Text>Here</Text>);
  await expect(screen.findByText('Nowhere', { timeout: 50, interval: 10 })).rejects.toThrow(/Nowhere/);
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('Use of option "timeout" in a findBy* query options (2nd parameter) is deprecated'));
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('Use of option "interval" in a findBy* query options (2nd parameter) is deprecated'));
  const onTimeout = jest.fn(() => new Error('mine'));
  await expect(screen.findByText('Nowhere', { onTimeout }, { timeout: 50 })).rejects.toThrow(/Unable to find an element with text: Nowhere/);
  expect(onTimeout).not.toHaveBeenCalled();
  warn.mockRestore();
});

test("ByRole's name, as RNTL's text and label queries within the element: hidden text names nothing, nor a hidden element", () => {
  render(
    <View>
      <Pressable accessibilityRole="button" onPress={() => {}}>
        <Text>Details</Text>
        <Text accessibilityElementsHidden>▼</Text>
      </Pressable>
      <View accessibilityElementsHidden>
        <Pressable accessibilityRole="button" accessibilityLabel="Back" onPress={() => {}} />
      </View>
      <Pressable accessibilityRole="button" accessibilityLabel="Back" onPress={() => {}} />
    </View>,
  );
  expect(screen.getByRole('button', { name: 'Details' })).toBeOnTheScreen();
  expect(screen.queryByRole('button', { name: '▼' })).toBeNull();
  // The covered screen's button is found with includeHiddenElements, but its name is hidden: one Back.
  expect(screen.getAllByRole('button', { includeHiddenElements: true })).toHaveLength(3);
  expect(screen.getByRole('button', { name: 'Back', includeHiddenElements: true })).toBeOnTheScreen();
  configure({ defaultIncludeHiddenElements: true });
  expect(screen.getAllByRole('button', { name: 'Back' })).toHaveLength(2);
});

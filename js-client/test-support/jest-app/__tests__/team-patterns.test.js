// What teams' test files do around RNTL: a jest.mock of react-native that adds a native module, spies on Alert,
// Linking and Keyboard, fake timers driving an interval, jest.runAllTimers, and RNTL's UNSAFE_* queries over composites.
import * as React from 'react';
import { Alert, Animated, Button, Keyboard, Linking, NativeModules, Platform, Pressable, Switch, Text, TextInput, TouchableHighlight, View, ActivityIndicator, FlatList } from 'react-native';
import { act, fireEvent, render, screen, userEvent, within } from '@testing-library/react-native';

jest.mock('react-native', () => {
  const RN = jest.requireActual('react-native');
  RN.NativeModules.MyModule = { getValue: jest.fn(() => 42) };
  return RN;
});

function Screen() {
  const [on, setOn] = React.useState(false);
  const [n, setN] = React.useState(0);
  React.useEffect(() => {
    const id = setInterval(() => setN((x) => x + 1), 1000);
    return () => clearInterval(id);
  }, []);
  return (
    <View>
      <Text>ticks {n}</Text>
      <Switch testID="sw" value={on} onValueChange={setOn} />
      <Button title="Alert" onPress={() => Alert.alert('Hi', 'there')} />
      <Button title="Link" onPress={() => Linking.openURL('https://example.com')} />
      <Button title="Dismiss" onPress={() => Keyboard.dismiss()} />
      <Text>{Platform.OS} {NativeModules.MyModule.getValue()}</Text>
      {on ? <ActivityIndicator /> : null}
    </View>
  );
}

it('spies, fake timers and switches', () => {
  jest.useFakeTimers();
  const alert = jest.spyOn(Alert, 'alert');
  const open = jest.spyOn(Linking, 'openURL').mockResolvedValue(true);
  const dismiss = jest.spyOn(Keyboard, 'dismiss');
  render(<Screen />);
  expect(screen.getByText('ios 42')).toBeTruthy();
  act(() => { jest.advanceTimersByTime(3000); });
  expect(screen.getByText('ticks 3')).toBeTruthy();
  fireEvent.press(screen.getByText('Alert'));
  expect(alert).toHaveBeenCalledWith('Hi', 'there');
  fireEvent.press(screen.getByText('Link'));
  expect(open).toHaveBeenCalledWith('https://example.com');
  fireEvent.press(screen.getByText('Dismiss'));
  expect(dismiss).toHaveBeenCalled();
  fireEvent(screen.getByTestId('sw'), 'valueChange', true);
  expect(screen.getByTestId('sw').props.value).toBe(true);
  act(() => { jest.runOnlyPendingTimers(); });
  jest.useRealTimers();
});

it('runAllTimers does not loop on bridged\'s own timers', () => {
  jest.useFakeTimers();
  render(<Text>plain</Text>);
  act(() => { jest.runAllTimers(); });
  expect(screen.getByText('plain')).toBeOnTheScreen();
  jest.useRealTimers();
});

it('UNSAFE_getByType', () => {
  render(<View><Switch value={false} /><ActivityIndicator /></View>);
  expect(screen.UNSAFE_getByType(ActivityIndicator)).toBeTruthy();
  expect(screen.UNSAFE_getByType(Switch).props.value).toBe(false);
});

// meliorence/react-native-render-html's "should update <img> contentWidth when contentWidth prop changes": a
// composite's props after `update`, read from a fresh UNSAFE_getByType and from the one taken before (React renders
// into the fiber's alternate, so the fiber the first query saw holds the first render's props).
it('UNSAFE_getByType answers the props of the last render after update', () => {
  function Leaf({ n }) { return <Text>leaf {n}</Text>; }
  const Memo = React.memo(function Memo({ n }) { return <View><Leaf n={n} /></View>; });
  const Width = React.createContext(0);
  function FromContext() { return <Leaf n={React.useContext(Width)} />; }
  const Stable = React.memo(function Stable() { return <FromContext />; });
  const { update } = render(<Memo n={1} />);
  const before = screen.UNSAFE_getByType(Leaf);
  expect(before.props.n).toBe(1);
  update(<Memo n={2} />);
  expect(screen.UNSAFE_getByType(Leaf).props.n).toBe(2);
  expect(before.props.n).toBe(2);
  update(<Memo n={3} />);
  expect(screen.UNSAFE_getByType(Leaf).props.n).toBe(3);
  expect(before.props.n).toBe(3);
  // A context's value reaching a component below a memo that does not re-render.
  const second = render(<Width.Provider value={300}><Stable /></Width.Provider>);
  expect(second.UNSAFE_getByType(Leaf).props.n).toBe(300);
  second.rerender(<Width.Provider value={200}><Stable /></Width.Provider>);
  expect(second.UNSAFE_getByType(Leaf).props).toEqual({ n: 200 });
  expect(second.getByText('leaf 200')).toBeOnTheScreen();
});

it('UNSAFE queries and root over composites', () => {
  const onChange = jest.fn();
  const onPress = jest.fn();
  function Row({ label }) { return <Text>{label}</Text>; }
  render(<View><Row label="a" /><Row label="b" /><TextInput onChangeText={onChange} /><Button title="go" onPress={onPress} /></View>);
  expect(screen.UNSAFE_getAllByType(Row).map((r) => r.props.label)).toEqual(['a', 'b']);
  expect(screen.UNSAFE_getByProps({ label: 'b' }).type).toBe(Row);
  expect(screen.UNSAFE_queryByType(Switch)).toBeNull();
  expect(() => screen.UNSAFE_getByType(Row)).toThrow('Expected 1 but found 2 instances');
  fireEvent.changeText(screen.UNSAFE_getByType(TextInput), 'hi');
  expect(onChange).toHaveBeenCalledWith('hi');
  fireEvent.press(screen.UNSAFE_getByType(Button));
  expect(onPress).toHaveBeenCalled();
  expect(screen.UNSAFE_root.type).toBe(View);
  expect(screen.UNSAFE_root.findAllByType(Row)).toHaveLength(2);
  expect(screen.UNSAFE_getAllByType(Row)[0].children[0].type).toBe(Text);
  expect(screen.UNSAFE_getAllByType(Row)[0].parent.type).toBe('View');
});

// react-test-renderer's finders, as RNTL hands them out: UNSAFE_getByProps/getByType and find/findByType/findByProps
// stop below a match (a TextInput passes its placeholder and testID down to what it renders: one match, as on the
// mocks), and a query's host element has them too (getByTestId('card').findAllByType(Text)).
it('UNSAFE_getBy* and the finders of a query result stop below a match', () => {
  render(
    <View testID="card">
      <Text>Title</Text>
      <Text>Body</Text>
      <TextInput placeholder="Jane" testID="in" />
      <Button title="Go" testID="btn" onPress={() => {}} />
    </View>,
  );
  expect(screen.UNSAFE_getByProps({ placeholder: 'Jane' }).props.testID).toBe('in');
  expect(screen.UNSAFE_queryByProps({ testID: 'btn' })).not.toBeNull();
  expect(screen.UNSAFE_getByType(TextInput).props.placeholder).toBe('Jane');
  const card = screen.getByTestId('card');
  expect(card.findAllByType(Text).map((t) => t.props.children)).toEqual(['Title', 'Body', 'Go']);
  expect(card.findByProps({ placeholder: 'Jane' }).props.testID).toBe('in');
  expect(card.findByType(TextInput).props.placeholder).toBe('Jane');
  expect(card.findAll((n) => n.props.testID === 'btn', { deep: false })).toHaveLength(1);
  expect(screen.UNSAFE_root.find((n) => n.props.testID === 'btn').props.title).toBe('Go');
});

// As RNTL's within(element): the UNSAFE_*ByType/ByProps queries over the element's instances too.
it('within(element) has the UNSAFE_* queries over its instances', () => {
  function Row({ label }) { return <View testID={`row-${label}`}><Text>{label}</Text><Switch value={false} /></View>; }
  render(<View testID="list"><Row label="a" /><Row label="b" /></View>);
  const rowA = screen.getByTestId('row-a');
  expect(within(rowA).UNSAFE_getByType(Switch).props.value).toBe(false);
  expect(within(rowA).UNSAFE_getAllByType(Text)).toHaveLength(1);
  expect(within(rowA).UNSAFE_queryByProps({ label: 'b' })).toBeNull();
  expect(within(screen.getByTestId('list')).UNSAFE_getAllByType(Row)).toHaveLength(2);
  expect(within(screen.UNSAFE_getAllByType(Row)[1]).UNSAFE_getByType(Text).props.children).toBe('b');
});

// react-test-renderer's `_fiber` (its instances' own field), which teams' helpers read: a query's element's fiber,
// whose memoizedProps and pendingProps are the React props its host was given (a calculator's test reads
// `display._fiber.pendingProps.children[0]`, a tap helper lists `Object.keys(node._fiber.memoizedProps)`), and a
// component's from UNSAFE_getByType.
it("an element's _fiber has the React props its host was given", () => {
  function Calc() {
    const [n] = React.useState(2);
    return (
      <View>
        <Text testID="display">{String(n)}</Text>
        <TextInput testID="in" onChangeText={() => {}} />
      </View>
    );
  }
  render(<Calc />);
  const display = screen.getByTestId('display');
  expect(display._fiber.pendingProps.children).toBe('2');
  expect(display._fiber.memoizedProps.testID).toBe('display');
  expect(Object.keys(screen.getByTestId('in')._fiber.memoizedProps)).toContain('onChangeText');
  expect(screen.UNSAFE_getByType(Calc)._fiber.type).toBe(Calc);
});

// RNTL's `root` is the first host element rendered, undefined when the component renders nothing: a star rating
// with no rating returns null and its test asserts `expect(root).toEqual(undefined)` (bridged answered null).
it('root is undefined when the component renders nothing, as RNTL answers', () => {
  function Rating({ value }) {
    return value ? <Text>{value}</Text> : null;
  }
  const { root } = render(<Rating />);
  expect(root).toEqual(undefined);
  expect(screen.root).toBeUndefined();
  screen.rerender(<Rating value="8" />);
  expect(screen.root.props.children).toBe('8');
});

// A toast that fades out on the native driver, then hides: under fake timers, the test's advance past the fade ends
// it, and its callback gets iOS's `{finished: true}` (it came on Node's next turn, after the test had asserted, and
// with the node's value and offset besides).
it('a native-driven fade ends as fake timers advance, its callback given { finished: true }', () => {
  jest.useFakeTimers();
  const onEnd = jest.fn();
  function Toast() {
    const [shown, setShown] = React.useState(true);
    const opacity = React.useRef(new Animated.Value(1)).current;
    React.useEffect(() => {
      Animated.timing(opacity, { toValue: 0, duration: 300, useNativeDriver: true }).start((result) => {
        onEnd(result);
        setShown(false);
      });
    }, [opacity]);
    return shown ? <Animated.View style={{ opacity }}><Text>Saved</Text></Animated.View> : null;
  }
  render(<Toast />);
  expect(screen.getByText('Saved')).toBeOnTheScreen();
  act(() => { jest.advanceTimersByTime(1000); });
  expect(onEnd).toHaveBeenCalledTimes(1);
  expect(onEnd).toHaveBeenCalledWith({ finished: true });
  expect(screen.queryByText('Saved')).toBeNull();
  jest.useRealTimers();
});

// The native driver runs an animation for as long as a phone's does (iOS steps it at 60 frames a second): a toast
// still shows while its 300-ms fade runs, and goes once the clock passed it, as with the mocks' JavaScript driver
// (bridged ended a native-driven animation at once, so a test that checked the toast mid-fade failed); a sequence's
// steps end one after the other, a delay between them; a spring ends once at rest; a stopped fade stays where it is.
it('a native-driven animation runs for its duration under fake timers: timing, sequence with a delay, spring, stop', () => {
  jest.useFakeTimers();
  const log = [];
  const opacity = new Animated.Value(1);
  const x = new Animated.Value(0);
  function Toast() {
    const [shown, setShown] = React.useState(true);
    React.useEffect(() => {
      Animated.timing(opacity, { toValue: 0, duration: 300, useNativeDriver: true }).start(({ finished }) => {
        log.push(`fade ${finished}`);
        setShown(false);
      });
    }, []);
    return shown ? <Animated.View testID="toast" style={{ opacity, transform: [{ translateX: x }] }}><Text>Saved</Text></Animated.View> : null;
  }
  render(<Toast />);
  act(() => { jest.advanceTimersByTime(200); });
  expect(log).toEqual([]);
  expect(screen.getByText('Saved')).toBeOnTheScreen();
  act(() => { jest.advanceTimersByTime(100); });
  expect(log).toEqual(['fade true']);
  expect(screen.queryByText('Saved')).toBeNull();

  const a = new Animated.Value(0);
  Animated.sequence([
    Animated.timing(a, { toValue: 1, duration: 100, useNativeDriver: true }),
    Animated.delay(50),
    Animated.timing(a, { toValue: 2, duration: 100, useNativeDriver: true }),
  ]).start(({ finished }) => log.push(`sequence ${finished}`));
  render(<Animated.View testID="box" style={{ opacity: a }} />);
  act(() => { jest.advanceTimersByTime(240); });
  expect(log).toEqual(['fade true']);
  act(() => { jest.advanceTimersByTime(20); });
  expect(log).toEqual(['fade true', 'sequence true']);
  expect(screen.getByTestId('box').native.props.opacity).toBe(2);

  const s = new Animated.Value(0);
  render(<Animated.View testID="spring" style={{ opacity: s }} />);
  Animated.spring(s, { toValue: 1, useNativeDriver: true }).start(({ finished }) => log.push(`spring ${finished}`));
  act(() => { jest.advanceTimersByTime(100); });
  expect(log).toHaveLength(2);
  act(() => { jest.advanceTimersByTime(5000); });
  expect(log).toEqual(['fade true', 'sequence true', 'spring true']);
  expect(screen.getByTestId('spring').native.props.opacity).toBe(1);

  const f = new Animated.Value(0);
  render(<Animated.View testID="stopped" style={{ opacity: f }} />);
  Animated.timing(f, { toValue: 1, duration: 1000, easing: (t) => t, useNativeDriver: true }).start(({ finished }) => log.push(`stopped ${finished}`));
  act(() => { jest.advanceTimersByTime(500); });
  act(() => { f.stopAnimation((value) => log.push(`at ${value.toFixed(1)}`)); });
  act(() => { jest.advanceTimersByTime(1000); });
  expect(log.slice(3)).toEqual(['stopped false', 'at 0.5']);
  expect(screen.getByTestId('stopped').native.props.opacity).toBeCloseTo(0.5, 1);
  jest.useRealTimers();
});

// RNTL's fireEvent returns what the handler returned, so `await fireEvent.press(button)` waits for an async onPress
// (a login screen whose storage rejects after an await, its catch logging the error): on bridged the touch's
// handler ran, but fireEvent.press returned undefined, and the test's expectation came before the catch.
it('fireEvent.press returns what its handler returned: await waits for an async onPress', async () => {
  const onError = jest.fn();
  const save = jest.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('offline'));
  const submit = async () => {
    try {
      await save();
      await save();
    } catch (error) {
      onError(error);
    }
  };
  render(<Button title="Log in" onPress={submit} />);
  await fireEvent.press(screen.getByText('Log in'));
  expect(onError).toHaveBeenCalledWith(new Error('offline'));
  screen.unmount();
  render(
    <View>
      <Pressable onPress={() => 'pressable'}><Text>A</Text></Pressable>
      <Text onPress={() => 'text'}>B</Text>
      <TouchableHighlight onPress={() => 'highlight'}><Text>C</Text></TouchableHighlight>
      <Text>D</Text>
    </View>,
  );
  expect(fireEvent.press(screen.getByText('A'))).toBe('pressable');
  expect(fireEvent(screen.getByText('B'), 'press')).toBe('text');
  expect(fireEvent.press(screen.getByText('C'))).toBe('highlight');
  expect(fireEvent.press(screen.getByText('D'))).toBeUndefined();
});

it('a screen that listens to the keyboard: typing into its field shows it, then hides it, each update inside act', async () => {
  // The keyboard's device events, which bridged sends as a phone does (the mocks send none), reached the app's
  // listeners outside React's act: every update they made warned "An update to Search inside a test was not wrapped
  // in act(...)" (React Native's own events run in its batchedUpdates, where React never warns; a device event not).
  const errors = jest.spyOn(console, 'error');
  function Search() {
    const [seen, setSeen] = React.useState([]);
    React.useEffect(() => {
      const shown = Keyboard.addListener('keyboardDidShow', () => setSeen((s) => [...s, 'up']));
      const hidden = Keyboard.addListener('keyboardDidHide', () => setSeen((s) => [...s, 'down']));
      return () => {
        shown.remove();
        hidden.remove();
      };
    }, []);
    return (
      <View>
        <TextInput placeholder="Search" />
        <Text>keyboard: {seen.join(', ')}</Text>
      </View>
    );
  }
  render(<Search />);
  await userEvent.type(screen.getByPlaceholderText('Search'), 'tea');
  expect(screen.getByText('keyboard: up, down')).toBeTruthy();
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

// A listener on a native-driven value hears what the native side does to it, as iOS sends onAnimatedValueUpdate: a
// collapsing header's `scrollY.addListener` over a native-driven Animated.event, and a timing's end (bridged never
// called them: its native side ignored startListeningToAnimatedNodeValue).
it('a listener on a native-driven value hears a mapped scroll and an animation end', () => {
  jest.useFakeTimers();
  const seen = [];
  function Header() {
    const scrollY = React.useRef(new Animated.Value(0)).current;
    const [compact, setCompact] = React.useState(false);
    React.useEffect(() => {
      const id = scrollY.addListener(({ value }) => setCompact(value > 100));
      return () => scrollY.removeListener(id);
    }, [scrollY]);
    return (
      <View style={{ flex: 1 }}>
        <Text>{compact ? 'compact header' : 'large header'}</Text>
        <Animated.ScrollView testID="scroll" scrollEventThrottle={16} onScroll={Animated.event([{ nativeEvent: { contentOffset: { y: scrollY } } }], { useNativeDriver: true })}>
          <View style={{ height: 3000 }} />
        </Animated.ScrollView>
      </View>
    );
  }
  render(<Header />);
  fireEvent.scroll(screen.getByTestId('scroll'), { nativeEvent: { contentOffset: { y: 300 } } });
  expect(screen.getByText('compact header')).toBeOnTheScreen();

  const v = new Animated.Value(0);
  v.addListener(({ value }) => seen.push(value));
  render(<Animated.View style={{ opacity: v }} />);
  act(() => { Animated.timing(v, { toValue: 1, duration: 300, useNativeDriver: true }).start(); });
  act(() => { jest.advanceTimersByTime(300); });
  expect(seen.at(-1)).toBe(1);
  jest.useRealTimers();
});

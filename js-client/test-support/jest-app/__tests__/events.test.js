// fireEvent and userEvent: native touches, typing into the daemon's text fields, scrolls.
import React from 'react';
import { Pressable, ScrollView, Switch, Text, TextInput, TouchableHighlight, TouchableOpacity, View } from 'react-native';
import { render, screen, fireEvent, userEvent, waitFor } from '@testing-library/react-native';
import Login from '../src/Login';
import Catalog from '../src/Catalog';

test('fireEvent.press, a long press and a custom event', () => {
  render(<Catalog />);
  fireEvent.press(screen.getByText('Banana'));
  expect(screen.getByText('Selected: Banana')).toBeTruthy();
  fireEvent(screen.getByText('Banana'), 'longPress');
  expect(screen.getByText('Selected: none')).toBeTruthy();
  fireEvent.press(screen.getByText('More'));
  expect(screen.getByTestId('details')).toBeTruthy();
});

test('fireEvent.changeText: a controlled field, maxLength and editable={false} hold natively', () => {
  render(<Login />);
  fireEvent.changeText(screen.getByTestId('name'), 'Ana');
  expect(screen.getByDisplayValue('Ana')).toBeTruthy();
  fireEvent.changeText(screen.getByTestId('name'), 'Bo');
  expect(screen.getByTestId('name').props.value).toBe('Bo');
  fireEvent.changeText(screen.getByTestId('pin'), '123456');
  expect(screen.getByTestId('pin').props.value).toBe('1234');
  fireEvent.changeText(screen.getByTestId('locked'), 'changed');
  expect(screen.getByDisplayValue('fixed')).toBeTruthy();
});

test('fireEvent.changeText with no text calls onChangeText once with nothing, as RNTL does, empty field or not', () => {
  const onChangeText = jest.fn();
  render(
    <View>
      <TextInput testID="empty" onChangeText={onChangeText} />
      <TextInput testID="filled" value="kept" onChangeText={onChangeText} />
    </View>,
  );
  fireEvent.changeText(screen.getByTestId('empty'));
  fireEvent.changeText(screen.getByTestId('filled'));
  expect(onChangeText.mock.calls).toEqual([[], []]);
  expect(screen.getByTestId('filled')).toHaveDisplayValue('kept');
});

test("fireEvent.changeText of '' into an empty field calls onChangeText('') once, as RNTL does, as a filled field's clearing does", () => {
  // oluwatunmiisheii/Note-app's NotesForm validation tests: a field changed to '' shows its "required" message.
  function Required() {
    const [title, setTitle] = React.useState({ value: '', valid: true });
    return (
      <View>
        <TextInput testID="title" value={title.value} onChangeText={(value) => setTitle({ value, valid: value.trim() !== '' })} />
        {title.valid ? null : <Text>Title is required</Text>}
      </View>
    );
  }
  const onChangeText = jest.fn();
  render(
    <View>
      <Required />
      <TextInput testID="filled" defaultValue="kept" onChangeText={onChangeText} />
    </View>,
  );
  fireEvent.changeText(screen.getByTestId('title'), '');
  expect(screen.getByText('Title is required')).toBeTruthy();
  fireEvent.changeText(screen.getByTestId('filled'), '');
  expect(onChangeText.mock.calls).toEqual([['']]);
});

test("fireEvent of a TextInput's change, focus and blur with data that is no native event calls the app's handlers with it, as RNTL does", () => {
  // tiagoangelods/react-native-duofy-ui-components' Input test: React Native's TextInput hands its native view its
  // own onChange, which reads event.nativeEvent.text; a changeText of a value no keyboard types is called as given.
  const handler = jest.fn();
  render(<TextInput testID="field" value="text" onChange={handler} onChangeText={handler} onFocus={handler} onBlur={handler} />);
  const field = screen.getByTestId('field');
  fireEvent(field, 'changeText', handler);
  fireEvent(field, 'change', 'not an event');
  fireEvent(field, 'focus', handler);
  fireEvent(field, 'blur');
  expect(handler.mock.calls).toEqual([[handler], ['not an event'], [handler], []]);
  expect(field).toHaveDisplayValue('text');
});

test('a disabled Pressable is not pressed', () => {
  const onDone = jest.fn();
  render(<Login onDone={onDone} />);
  fireEvent.press(screen.getByText('Sign in'));
  expect(screen.queryByTestId('spinner')).toBeNull();
  expect(onDone).not.toHaveBeenCalled();
});

test('fireEvent.scroll reaches onScroll with the native offset', () => {
  render(<Catalog />);
  fireEvent.scroll(screen.getByTestId('scroller'), { nativeEvent: { contentOffset: { y: 120 } } });
  expect(screen.getByText('Offset 120')).toBeTruthy();
});

test('fireEvent of a switch value', () => {
  render(<Login />);
  fireEvent(screen.getByTestId('remember'), 'valueChange', true);
  expect(screen.getByTestId('remember').props.value).toBe(true);
});

test('userEvent: press, longPress, type, clear, paste, scrollTo', async () => {
  const user = userEvent.setup();
  // RNTL 12.4's instance keeps its config, the defaults filled in.
  expect(user.config.delay).toBe(0);
  expect(typeof user.config.advanceTimers).toBe('function');
  expect(userEvent.setup({ delay: 5 }).config.delay).toBe(5);
  render(<Catalog />);
  await user.press(screen.getByText('Cherry'));
  expect(screen.getByText('Selected: Cherry')).toBeTruthy();
  await user.longPress(screen.getByText('Cherry'));
  expect(screen.getByText('Selected: none')).toBeTruthy();
  await user.scrollTo(screen.getByTestId('scroller'), { y: 40 });
  expect(screen.getByText('Offset 40')).toBeTruthy();
  screen.unmount();

  render(<Login />);
  const name = screen.getByTestId('name');
  await user.type(name, 'Zoe');
  expect(name.props.value).toBe('Zoe');
  await user.clear(name);
  expect(name.props.value).toBe('');
  await user.paste(name, 'Pasted');
  expect(name.props.value).toBe('Pasted');
  await user.type(screen.getByTestId('pin'), '98765');
  expect(screen.getByTestId('pin').props.value).toBe('9876');
});

// RNTL 12.9's type option: with skipBlur, the field is still focused after the text (no onEndEditing, no onBlur).
test('userEvent.type with skipBlur leaves the field focused', async () => {
  const user = userEvent.setup();
  const onBlur = jest.fn();
  const onEndEditing = jest.fn();
  render(<TextInput testID="field" onBlur={onBlur} onEndEditing={onEndEditing} />);
  await user.type(screen.getByTestId('field'), 'abc', { skipBlur: true });
  expect(screen.getByTestId('field')).toHaveDisplayValue('abc');
  expect(onBlur).not.toHaveBeenCalled();
  expect(onEndEditing).not.toHaveBeenCalled();
  await user.type(screen.getByTestId('field'), 'd');
  expect(onBlur).toHaveBeenCalledTimes(1);
  expect(onEndEditing).toHaveBeenCalledTimes(1);
});

// RNTL's scrollTo: a drag to y, then its momentum to momentumY (momentumScrollBegin where the drag ended, the scroll,
// momentumScrollEnd where it rests); an axis not given stays where it is. A press right after a momentum reaches its
// row: a ScrollView takes a touch within 16 ms of a momentum end as a stop of its scroll, which no finger makes.
function Rows({ log, pagingEnabled = false }) {
  const at = (name) => (event) => log(name, event.nativeEvent.contentOffset.y);
  return (
    <ScrollView testID="rows" pagingEnabled={pagingEnabled} onScrollBeginDrag={at('drag')} onMomentumScrollBegin={at('momentumBegin')} onMomentumScrollEnd={at('momentumEnd')}>
      {Array.from({ length: 40 }, (_, i) => (
        <Pressable key={i} style={{ height: 100 }} onPress={() => log('press', i)}>
          <Text>{`Row ${i}`}</Text>
        </Pressable>
      ))}
    </ScrollView>
  );
}

test('userEvent.scrollTo with momentum, then a press', async () => {
  const user = userEvent.setup();
  const log = jest.fn();
  render(<Rows log={log} />);
  await user.scrollTo(screen.getByTestId('rows'), { y: 100, momentumY: 300 });
  expect(log.mock.calls).toEqual([['drag', 0], ['momentumBegin', 100], ['momentumEnd', 300]]);
  log.mockClear();
  await user.scrollTo(screen.getByTestId('rows'), { momentumY: 500 });
  expect(log.mock.calls).toEqual([['momentumBegin', 300], ['momentumEnd', 500]]);
  fireEvent.press(screen.getByText('Row 6'));
  expect(log).toHaveBeenLastCalledWith('press', 6);
});

// RNTL's scrollTo moves the finger in steps, and the momentum slows in steps: onScroll is called along the way, not
// once at the end (a "load more" or a header that fades with the offset sees the offsets between). A drag from 0 to
// 400: scrollBeginDrag at 0, scroll at 100, 200, 300 and 400 (RNTL stops at 300; a phone reports where the finger
// stops), scrollEndDrag at 400; a momentum to 800: momentumScrollBegin at 400, scroll at 600, 700, 750, 800 (RNTL's
// inertial steps), momentumScrollEnd at 800. A drag that does not move reports no scroll.
test('userEvent.scrollTo drags and decelerates in steps, onScroll at each', async () => {
  const user = userEvent.setup();
  const events = [];
  const at = (name) => (event) => events.push([name, event.nativeEvent.contentOffset.y]);
  render(
    <ScrollView testID="feed" onScroll={at('scroll')} onScrollBeginDrag={at('beginDrag')} onScrollEndDrag={at('endDrag')} onMomentumScrollBegin={at('momentumBegin')} onMomentumScrollEnd={at('momentumEnd')}>
      {Array.from({ length: 30 }, (_, i) => (
        <Text key={i} style={{ height: 100 }}>{`Item ${i}`}</Text>
      ))}
    </ScrollView>,
  );
  await user.scrollTo(screen.getByTestId('feed'), { y: 400, momentumY: 800 });
  expect(events).toEqual([
    ['beginDrag', 0],
    ['scroll', 100],
    ['scroll', 200],
    ['scroll', 300],
    ['scroll', 400],
    ['endDrag', 400],
    ['momentumBegin', 400],
    ['scroll', 600],
    ['scroll', 700],
    ['scroll', 750],
    ['scroll', 800],
    ['momentumEnd', 800],
  ]);
  events.length = 0;
  await user.scrollTo(screen.getByTestId('feed'), { y: 800 });
  expect(events).toEqual([
    ['beginDrag', 800],
    ['endDrag', 800],
  ]);
});

test('a press right after a paging scroll view came to rest reaches its row', async () => {
  const log = jest.fn();
  render(<Rows log={log} pagingEnabled />);
  await userEvent.scrollTo(screen.getByTestId('rows'), { y: 1700 });
  fireEvent.press(screen.getByText('Row 20'));
  expect(log).toHaveBeenLastCalledWith('press', 20);
});

// aynurkarimov/react-native-testing-behavior's AsyncReactState test: a press whose handler waits 10 s, under fake
// timers, with an advanceTimers of the test's own that moves jest's clock 10 s a call. RNTL calls it at each of its
// waits (before the touch, the hold, the rest of the minimum press, after): the app's timer runs during the press.
function SlowCounter() {
  const [count, setCount] = React.useState(0);
  const later = async () => {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    setCount((value) => value + 1);
  };
  return (
    <Pressable accessibilityRole="button" onPress={later}>
      <Text>{`Count ${count}`}</Text>
    </Pressable>
  );
}

test("userEvent.setup's advanceTimers is called at RNTL's waits, with RNTL's durations", async () => {
  jest.useFakeTimers();
  try {
    const advanceTimers = jest.fn(() => jest.advanceTimersByTime(10_000));
    const user = userEvent.setup({ advanceTimers });
    render(<SlowCounter />);
    await user.press(screen.getByRole('button'));
    expect(advanceTimers.mock.calls).toEqual([[0], [0], [130], [0]]);
    await user.press(screen.getByRole('button'));
    await waitFor(() => expect(screen.getByText('Count 2')).toBeTruthy());
  } finally {
    jest.useRealTimers();
  }
});

test('userEvent.type presses {Enter} and {Backspace}, types {{ as {, and refuses an unknown key', async () => {
  const user = userEvent.setup();
  const onNotes = jest.fn();
  const onCode = jest.fn();
  render(
    <View>
      <TextInput testID="notes" multiline onChangeText={onNotes} />
      <TextInput testID="code" defaultValue="x" onChangeText={onCode} />
    </View>,
  );
  await user.type(screen.getByTestId('notes'), 'a{Enter}b');
  expect(onNotes).toHaveBeenLastCalledWith('a\nb');
  await user.type(screen.getByTestId('code'), 'ab{Backspace}{{c');
  expect(onCode).toHaveBeenLastCalledWith('xa{c');
  onCode.mockClear();
  await expect(user.type(screen.getByTestId('code'), 'a{Tab}')).rejects.toThrow('Unknown key "Tab" in "a{Tab}"');
  expect(onCode).not.toHaveBeenCalled();
});

/** A controlled field holding 'xy' that logs the keys, texts and selections its handlers get (`log` is emptied). */
function renderLoggedField() {
  const log = { keys: [], texts: [], selections: [], clear() { this.keys = []; this.texts = []; this.selections = []; } };
  function Field() {
    const [value, setValue] = React.useState('xy');
    return (
      <TextInput
        testID="field"
        value={value}
        onChangeText={(text) => {
          log.texts.push(text);
          setValue(text);
        }}
        onKeyPress={(event) => log.keys.push(event.nativeEvent.key)}
        onSelectionChange={(event) => log.selections.push(event.nativeEvent.selection)}
      />
    );
  }
  render(<Field />);
  return log;
}

test('{Backspace} and userEvent.clear are the delete key: keyPress Backspace, one change each', async () => {
  const user = userEvent.setup();
  const log = renderLoggedField();
  await user.type(screen.getByTestId('field'), 'a{Backspace}');
  expect(log.keys).toEqual(['a', 'Backspace']);
  expect(log.texts).toEqual(['xya', 'xy']);
  log.clear();
  // RNTL's clear, as a phone's select-all then delete: the selection over the text, the key, the change.
  await user.clear(screen.getByTestId('field'));
  expect(log.keys).toEqual(['Backspace']);
  expect(log.texts).toEqual(['']);
  expect(log.selections).toEqual([{ start: 0, end: 2 }, { start: 0, end: 0 }]);
  expect(screen.getByTestId('field')).toHaveDisplayValue('');
});

test("userEvent.paste (RNTL 12.5's) is a phone's select-all then paste: the selection, one change, no key", async () => {
  const user = userEvent.setup();
  const log = renderLoggedField();
  await user.paste(screen.getByTestId('field'), 'pasted');
  // iOS reports no key for pasted text (RCTBaseTextInputView), and RNTL's paste sends none.
  expect(log.keys).toEqual([]);
  expect(log.texts).toEqual(['pasted']);
  expect(log.selections).toEqual([{ start: 0, end: 2 }, { start: 6, end: 6 }]);
  expect(screen.getByTestId('field')).toHaveDisplayValue('pasted');
});

// fireEvent.changeText is the field's whole text replaced by a paste: one change, no key (bridged typed the text as one
// key press, `onKeyPress` got the whole text as its key, and a controlled field that read the pooled event in a state
// updater crashed on the next change); `onChangeText` gets a string, as a phone's field gives.
test('fireEvent.changeText: one change, no key press, a string', () => {
  const keys = [];
  const changes = [];
  function Field() {
    const [value, setValue] = React.useState('old');
    return (
      <TextInput
        testID="field"
        value={value}
        onKeyPress={(e) => keys.push(e.nativeEvent.key)}
        onChangeText={(text) => {
          changes.push(text);
          setValue(text);
        }}
      />
    );
  }
  render(<Field />);
  fireEvent.changeText(screen.getByTestId('field'), 'hello');
  fireEvent.changeText(screen.getByTestId('field'), 42);
  expect(changes).toEqual(['hello', '42']);
  expect(keys).toEqual([]);
  expect(screen.getByTestId('field')).toHaveDisplayValue('42');
});

// {Enter} is the return key: it submits a single-line field and takes its focus, so `submitEditing: true` after it
// submits nothing more (bridged submitted twice, where a phone's return key needs a focused field).
test('userEvent.type with {Enter} and submitEditing submits once', async () => {
  jest.useFakeTimers();
  const onSubmitEditing = jest.fn();
  render(<TextInput testID="search" onSubmitEditing={onSubmitEditing} />);
  const user = userEvent.setup();
  await user.type(screen.getByTestId('search'), 'cats{Enter}', { submitEditing: true });
  expect(onSubmitEditing).toHaveBeenCalledTimes(1);
  await user.type(screen.getByTestId('search'), 'dogs', { submitEditing: true });
  expect(onSubmitEditing).toHaveBeenCalledTimes(2);
  jest.useRealTimers();
});

// Pressability's press-out comes 130 ms after a tap and updates the touchable's own state (Pressable's `pressed`,
// TouchableHighlight's underlay): in real time it fired while the test awaited something else, and React warned that
// the update was not wrapped in act; the touch's timers now run inside act, as its events do.
test('a tap, then a real-time wait past the press-out: no act warning', async () => {
  const errors = jest.spyOn(console, 'error');
  const onPress = jest.fn();
  render(
    <View>
      <Pressable onPress={onPress} style={({ pressed }) => ({ opacity: pressed ? 0.5 : 1 })}>
        <Text>Go</Text>
      </Pressable>
      <TouchableHighlight onPress={onPress}>
        <Text>Highlight</Text>
      </TouchableHighlight>
    </View>,
  );
  fireEvent.press(screen.getByText('Go'));
  fireEvent.press(screen.getByText('Highlight'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(onPress).toHaveBeenCalledTimes(2);
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

test('userEvent.type and clear leave a field no finger reaches (pointerEvents none above it) as it is, as RNTL does', async () => {
  function Locked() {
    const [value, setValue] = React.useState('42');
    return (
      <>
        <View pointerEvents="none">
          <TextInput placeholder="Gate code" value={value} onChangeText={setValue} />
        </View>
        <View pointerEvents="box-only">
          <TextInput placeholder="Note" defaultValue="Ring twice" />
        </View>
        <View pointerEvents="box-none">
          <TextInput placeholder="Open" />
        </View>
      </>
    );
  }
  const user = userEvent.setup();
  render(<Locked />);
  await user.type(screen.getByPlaceholderText('Gate code'), '99');
  expect(screen.getByPlaceholderText('Gate code')).toHaveDisplayValue('42');
  await user.clear(screen.getByPlaceholderText('Note'));
  expect(screen.getByPlaceholderText('Note')).toHaveDisplayValue('Ring twice');
  await user.type(screen.getByPlaceholderText('Open'), 'yes');
  expect(screen.getByPlaceholderText('Open')).toHaveDisplayValue('yes');
});

test('the return key of an empty field with enablesReturnKeyAutomatically submits nothing, as on iOS', async () => {
  const onSubmitEditing = jest.fn();
  const user = userEvent.setup();
  render(<TextInput placeholder="Search" enablesReturnKeyAutomatically onSubmitEditing={onSubmitEditing} />);
  await user.type(screen.getByPlaceholderText('Search'), '{Enter}');
  expect(onSubmitEditing).not.toHaveBeenCalled();
  await user.type(screen.getByPlaceholderText('Search'), 'cats{Enter}');
  expect(onSubmitEditing).toHaveBeenCalledTimes(1);
});

test("userEvent with jest's advanceTimers under fake timers: an async onPress's state update after an await warns nothing", async () => {
  jest.useFakeTimers();
  try {
    const error = jest.spyOn(console, 'error');
    function Save() {
      const [sent, setSent] = React.useState(false);
      return (
        <Pressable accessibilityRole="button" onPress={async () => { await Promise.resolve(); setSent(true); }}>
          <Text>{sent ? 'Sent' : 'Send'}</Text>
        </Pressable>
      );
    }
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render(<Save />);
    await user.press(screen.getByText('Send'));
    expect(screen.getByText('Sent')).toBeOnTheScreen();
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
  } finally {
    jest.useRealTimers();
  }
});

test('userEvent.type with submitEditing: an async onSubmitEditing that sets state after awaits warns nothing', async () => {
  const login = jest.fn(() => Promise.resolve({ name: 'Ada' }));
  function Form() {
    const [user, setUser] = React.useState(null);
    const submit = async () => {
      const result = await login();
      await undefined;
      setUser(result.name);
    };
    return (
      <View>
        <TextInput testID="password" onSubmitEditing={submit} />
        <Text>{user ?? 'signed out'}</Text>
      </View>
    );
  }
  const error = jest.spyOn(console, 'error');
  const user = userEvent.setup();
  render(<Form />);
  await user.type(screen.getByTestId('password'), 'secret', { submitEditing: true });
  await waitFor(() => expect(screen.getByText('Ada')).toBeOnTheScreen());
  expect(error).not.toHaveBeenCalled();
  error.mockRestore();
});

test("a tap on a Switch flips it, as a UISwitch does, and not the row's touchable around it; a disabled one stays", async () => {
  const onRow = jest.fn();
  function Row({ disabled = false }) {
    const [on, setOn] = React.useState(false);
    return (
      <TouchableOpacity onPress={onRow} style={{ flexDirection: 'row', padding: 16 }}>
        <Text style={{ flex: 1 }}>Bluetooth</Text>
        <Switch testID={disabled ? 'locked' : 'switch'} value={on} onValueChange={setOn} disabled={disabled} />
      </TouchableOpacity>
    );
  }
  render(
    <View>
      <Row />
      <Row disabled />
    </View>,
  );
  fireEvent.press(screen.getByTestId('switch'));
  expect(screen.getByTestId('switch')).toHaveProp('value', true);
  await userEvent.press(screen.getByTestId('switch'));
  expect(screen.getByTestId('switch')).toHaveProp('value', false);
  fireEvent.press(screen.getByTestId('locked'));
  expect(screen.getByTestId('locked')).toHaveProp('value', false);
  expect(onRow).not.toHaveBeenCalled();
});

test("under fake timers, a press outside any ScrollView leaves jest's clock where the test set it", () => {
  jest.useFakeTimers();
  try {
    jest.setSystemTime(new Date('2024-01-01T00:00:00.000Z'));
    const track = jest.fn();
    render(
      <Pressable accessibilityRole="button" onPress={() => track(new Date().toISOString())}>
        <Text>Buy</Text>
      </Pressable>,
    );
    fireEvent.press(screen.getByText('Buy'));
    expect(track).toHaveBeenCalledWith('2024-01-01T00:00:00.000Z');
  } finally {
    jest.useRealTimers();
  }
});

// Patterns of public apps' RNTL tests: presses on a Text inside a touchable, on a Text with onPress, on a
// TouchableOpacity with no children found by testID, React Native's Button by role, fireEvent(element, 'press'),
// fake timers for the whole file, run a step at a time, and a mocked React Native internal module.
import React, { useState } from 'react';
import { Button, Dimensions, Pressable, ScrollView, Text, TextInput, TouchableOpacity, UIManager, View, useWindowDimensions } from 'react-native';
import { render, fireEvent, screen, act, renderHook } from '@testing-library/react-native';

jest.mock('react-native/Libraries/Animated/NativeAnimatedHelper');
jest.useFakeTimers();

function MyButton({ text, onPress, testID }) {
  return (
    <TouchableOpacity testID={testID} onPress={onPress} accessibilityRole="button">
      <Text>{text}</Text>
    </TouchableOpacity>
  );
}

describe('<MyButton />', () => {
  it('calls onPress when its text is pressed', () => {
    const onPress = jest.fn();
    const { getByText } = render(<MyButton text="Submit" onPress={onPress} />);
    fireEvent.press(getByText('Submit'));
    expect(onPress).toHaveBeenCalledTimes(1);
  });

  it('fireEvent(element, "press") by testID', async () => {
    const onPress = jest.fn();
    const { findByTestId } = render(<MyButton testID="button" text="Go" onPress={onPress} />);
    const button = await findByTestId('button');
    fireEvent(button, 'press');
    expect(onPress).toHaveBeenCalled();
  });

  it('a TouchableOpacity with no children', () => {
    const onPress = jest.fn();
    render(<TouchableOpacity testID="bare" onPress={onPress} />);
    fireEvent.press(screen.getByTestId('bare'));
    expect(onPress).toHaveBeenCalled();
  });
});

it('a Text with onPress', () => {
  const onPress = jest.fn().mockReturnValue({ called: true });
  render(<Text testID="link" onPress={onPress}>dummy</Text>);
  fireEvent.press(screen.getByTestId('link'));
  expect(onPress.mock.results[0].value).toStrictEqual({ called: true });
});

it("React Native's Button, by role and name", () => {
  const onPress = jest.fn();
  render(<Button title="Press me!" onPress={onPress} />);
  fireEvent.press(screen.getByRole('button', { name: 'Press me!' }));
  expect(onPress).toHaveBeenCalled();
});

it('a countdown run one timer at a time', () => {
  function Countdown() {
    const [n, setN] = useState(3);
    React.useEffect(() => {
      if (n === 0) return undefined;
      const t = setTimeout(() => setN(n - 1), 1000);
      return () => clearTimeout(t);
    }, [n]);
    return (
      <View>
        <Text>{n === 0 ? 'Liftoff' : `T-${n}`}</Text>
      </View>
    );
  }
  render(<Countdown />);
  expect(screen.getByText('T-3')).toBeTruthy();
  for (const left of ['T-2', 'T-1', 'Liftoff']) {
    act(() => {
      jest.runOnlyPendingTimers();
    });
    expect(screen.getByText(left)).toBeTruthy();
  }
});

it('onLayout gets the frame the phone lays out (Yoga from the app\'s react-native), where the mocks send none', async () => {
  function Measured() {
    const [size, setSize] = useState('unmeasured');
    return (
      <View style={{ width: 120, padding: 10 }}>
        <View style={{ height: 30, flexGrow: 0 }} onLayout={(e) => setSize(`${e.nativeEvent.layout.width}x${e.nativeEvent.layout.height}`)} />
        <Text>{size}</Text>
      </View>
    );
  }
  render(<Measured />);
  expect(await screen.findByText('100x30')).toBeTruthy();
});

// A layout that never settles (each frame calls onLayout, which sets state, whose commit lays out the other
// frame) runs a commit a frame on a phone, and the app goes on. Over the preset's synchronous bridge each commit's
// layout events came with its answer and the next commit was a microtask away: the loop never gave the event loop
// back and the jest run never ended (react-native-paper's TextInput with an affix, whose heights a pixel apart
// flipped). The loop is cut after 100 commits: the test ends, and the screen answers.
it('a layout that never settles is cut, and the event loop goes on', async () => {
  let calls = 0;
  function Flipping() {
    const [tall, setTall] = useState(false);
    return (
      <View
        testID="flipping"
        style={{ height: tall ? 31 : 30 }}
        onLayout={() => {
          calls++;
          setTall((t) => !t);
        }}
      />
    );
  }
  // Real timers for this test (the file fakes them): a real turn of the event loop must come.
  jest.useRealTimers();
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    render(<Flipping />);
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    warn.mockRestore();
    jest.useFakeTimers();
  }
  expect(calls).toBeGreaterThan(50);
  expect(calls).toBeLessThan(1000);
  expect(screen.getByTestId('flipping')).toBeOnTheScreen();
});

// Dimensions are what iOS's RCTDeviceInfo exports, window and screen alike: width, height, scale and fontScale (a
// test comparing the whole object, or a snapshot of it, sees no other key; the safe-area insets are
// react-native-safe-area-context's).
test('Dimensions and useWindowDimensions have the four keys a phone gives', () => {
  const keys = ['fontScale', 'height', 'scale', 'width'];
  expect(Object.keys(Dimensions.get('window')).sort()).toEqual(keys);
  expect(Object.keys(Dimensions.get('screen')).sort()).toEqual(keys);
  expect(Object.keys(renderHook(() => useWindowDimensions()).result.current).sort()).toEqual(keys);
});

// A width computed before any layout, `${(containerWidth - textWidth) / 2 / containerWidth * 100}%` (a design
// system's divider, trilogy's), is '-Infinity%' at first render: iOS's RCTConvert reads text ending in '%' with
// NSScanner, reads no number there, and leaves the width unset, no error; the mocks take any prop. Bridged refused it
// ("JSON value '-Infinity%' of type string cannot be converted to dimension").
test('a percentage width with no number iOS reads (-Infinity%, NaN%) renders, the width unset', () => {
  render(
    <View style={{ width: 200, flexDirection: 'row' }}>
      <View testID="side" style={{ width: `${(-16 / 0) * 100}%`, height: 1 }} />
      <View testID="nan" style={{ width: `${(0 / 0) * 100}%`, height: 1 }} />
      <View testID="half" style={{ width: '50%', height: 1 }} />
    </View>,
  );
  expect(screen.getByTestId('side')).toHaveStyle({ width: '-Infinity%' });
  expect(screen.getByTestId('nan')).toHaveStyle({ width: 'NaN%' });
  expect(screen.getByTestId('half')).toHaveStyle({ width: '50%' });
  // The native views (bridged's; the mocks have none): the unread widths unset, the 50% kept.
  const native = (id) => screen.getByTestId(id).native;
  if (native('side')) {
    expect([native('side').props.width, native('nan').props.width, native('half').props.width]).toEqual([undefined, undefined, '50%']);
  }
});

// React Native's TextInput hands the app's ref down to its host (`forwardedRef`), whose current is the native instance,
// and through it the app's whole fiber tree: toJSON shows the instance by its view's name, so a snapshot of a screen
// with a field given a ref prints (react-native-paper's Searchbar and TextInput snapshots took 20 s each, then failed
// with pretty-format's "Invalid string length").
test('toJSON of a TextInput given a ref can be printed', () => {
  const ref = React.createRef();
  const { toJSON } = render(<TextInput ref={ref} placeholder="Search" />);
  expect(ref.current).toBeTruthy();
  const json = toJSON();
  expect(json.props.placeholder).toBe('Search');
  expect(() => JSON.stringify(json)).not.toThrow();
});

// A size computed from one that is undefined (react-native-timer-picker's DurationScroll given a style without a
// height: snapToOffsets = i * undefined) is NaN. React Native's MessageQueue refuses such a native call in development
// (enqueueNativeCall: "… is not usable as a native method argument", a red screen on a phone), before the view is
// made; React Native's mocks render it. The failed render leaves nothing behind, and the next one goes on.
test('a NaN in a host prop fails the render as on a phone in development, and the next render goes on', () => {
  const Rows = ({ height }) => <View testID="rows" style={{ width: 2 * height }} />;
  expect(() => render(<Rows />)).toThrow(/^\[\d+,"RCTView",\d+,\{"testID":"rows","width":"<<NaN>>"\}\] is not usable as a native method/);
  render(<Rows height={10} />);
  expect(screen.getByTestId('rows')).toHaveStyle({ width: 20 });
});

// An offset not measured yet (undefined, sent as null) in a list prop: iOS's RCTConvertArrayValue leaves out each
// element RCTConvert turns into nil, so the native list holds the others; the mocks keep the list as given.
test('a list prop with an undefined element renders, the element left out natively', () => {
  render(
    <ScrollView testID="snapping" snapToOffsets={[undefined, 50, 100]}>
      <Text>row</Text>
    </ScrollView>,
  );
  expect(screen.getByText('row')).toBeTruthy();
  const native = screen.getByTestId('snapping').native;
  if (native) expect(native.props.snapToOffsets).toEqual([50, 100]);
});

// A native call that threw inside act and took the commit being built back (here a UIManager call that moves views
// under a tag no view has): act throws that error, once, and the test goes on in the same turn; the next render is
// sent, not held for a microtask the test never yields to.
test('after a native call that threw inside act, the next render shows', () => {
  expect(() => act(() => UIManager.manageChildren(99999, [], [], [1], [0], []))).toThrow(/no view with tag 99999/);
  render(<Text>after</Text>);
  expect(screen.getByText('after')).toBeTruthy();
});

// An app's own updateView of a view that is gone, from a layout effect (setNativeProps on a ref kept past its view):
// the call throws to the effect, and only the call is refused; the commit React applied (the effect's own
// component's views) goes out, and the app's error boundary shows its fallback. It took that commit back, and the
// boundary's next commit, made on views the daemon never had, failed again, for ever.
class Boundary extends React.Component {
  state = { error: null };
  static getDerivedStateFromError(error) {
    return { error };
  }
  render() {
    return this.state.error ? <Text>caught: {this.state.error.message}</Text> : this.props.children;
  }
}
function UpdatesAViewThatIsGone() {
  React.useLayoutEffect(() => {
    UIManager.updateView(99999, 'RCTView', { opacity: 1 });
  }, []);
  return (
    <View testID="gone">
      <Text>mounted</Text>
    </View>
  );
}
test("an updateView of a view that is gone, from a layout effect: the app's error boundary shows its fallback", () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(
      <View testID="outer">
        <Boundary>
          <UpdatesAViewThatIsGone />
        </Boundary>
      </View>,
    );
    expect(screen.getByText('caught: UIManager.updateView: no view with tag 99999')).toBeTruthy();
    expect(screen.queryByTestId('gone')).toBeNull();
    expect(screen.getByTestId('outer').children).toHaveLength(1);
  } finally {
    console.error.mockRestore();
  }
});

// A component that throws as it renders is rendered once before its boundary takes over, as react-test-renderer (the
// mocks') does: React Native's development renderer, as shipped, renders it a second time to replay the error for a
// browser's debugger (dev-overhead.cjs takes that out), and a test counting renders counted 2.
test('a component that throws renders once, and its boundary shows the error', () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  let renders = 0;
  function Throws() {
    renders += 1;
    throw new Error('cannot render');
  }
  try {
    render(
      <Boundary>
        <Throws />
      </Boundary>,
    );
    expect(screen.getByText('caught: cannot render')).toBeTruthy();
    expect(renders).toBe(1);
  } finally {
    console.error.mockRestore();
  }
});

// akveo/react-native-ui-kitten's MeasureElement (modal.spec.tsx) measures its view in the window again in each answer
// while the view has no size: a loop of measureInWindow calls that outlives the test and the file. Each answer reads
// `react-native` (ui-kitten's Frame.window(): Dimensions.get('window')). An answer delivered after the file's end
// would require from a torn-down jest environment, throw outside any test, and end the worker with the files after
// it; a phone answers no native call of an app that is gone. Kept last in the file: the loop runs until the file ends.
function MeasuresWhileItHasNoSize({ onWindow }) {
  const ref = React.useRef(null);
  React.useLayoutEffect(() => {
    // The host view, kept: the loop goes on after the test's cleanup unmounts it (the mocks' measureInWindow, a
    // jest.fn, never answers; their UIManager has no measure calls).
    const view = ref.current;
    const measure = () =>
      view.measureInWindow((x, y, width, height) => {
        onWindow(require('react-native').Dimensions.get('window').width);
        if (!width && !height) measure();
      });
    measure();
  }, []);
  return <View ref={ref} testID="unsized" style={{ width: 0, height: 0 }} />;
}
test('an app that measures a view again in each answer, the loop still going when the file ends', () => {
  const onWindow = jest.fn();
  render(<MeasuresWhileItHasNoSize onWindow={onWindow} />);
  expect(screen.getByTestId('unsized')).toBeTruthy();
});

// A press's handler given no data gets React Native's event (Pressability persists it), which holds the pressed
// view's fiber (_targetInst) and native instance (target), and through them the app's whole fiber tree: pretty-format
// printed it path by path, so a failing toHaveBeenCalledWith(…) ran jest out of memory (4 GB, after a minute and
// more), the run ending with no report (found by corpus 38: DariuDev/ApplicationDesignSystem's OfferCard test). The
// fiber and the native instance print as a line each.
test("a press handler's event, in a failing toHaveBeenCalledWith's message, is printed", () => {
  const onPress = jest.fn();
  render(
    <Pressable testID="card" onPress={onPress}>
      <Text>Offer</Text>
    </Pressable>,
  );
  fireEvent.press(screen.getByTestId('card'));
  const [event] = onPress.mock.calls[0];
  const prettyFormat = require('pretty-format'); // React Native 0.72's (26) is the function itself
  expect((prettyFormat.format ?? prettyFormat)(event, { maxDepth: 3 })).not.toMatch(/memoizedProps/);
  expect(() => expect(onPress).toHaveBeenCalledWith({ nativeEvent: { pageX: 21 } })).toThrow(/pageX/);
});

// A prop longer than the daemon reads in one line (a text of 1.1 MB; a line is 1 MiB at most, and one op goes in
// one line) is refused before it is written, with frame_too_large, and the file goes on: the test's thread wrote
// the line while the daemon, past its limit, no longer read it, waited a minute for an answer, and lost its bridge.
test('a text longer than a line fails its render at once, and the next render works', () => {
  expect(() => render(<Text testID="log">{'x'.repeat(1100 * 1024)}</Text>)).toThrow(/frame_too_large|more than the daemon reads/);
  render(<Text>next</Text>);
  expect(screen.getByText('next')).toBeOnTheScreen();
});

// Half an emoji (a preview cut by UTF-16 length) is drawn as U+FFFD on a phone: the daemon takes whole characters
// only, and bridged refused the render ("a string has a lone UTF-16 surrogate escape"); it goes as U+FFFD, and a
// query given the cut string finds it.
test('a text that ends in half an emoji renders, and a query given the same string finds it', () => {
  const preview = 'Good job👍 see you'.slice(0, 9);
  render(<Text testID="preview">{preview}</Text>);
  expect(screen.getByTestId('preview')).toHaveTextContent('Good job', { exact: false });
  expect(screen.getByText(preview)).toBeOnTheScreen();
  expect(screen.getByTestId('preview').native.text).toBe('Good job\ufffd');
});

test("a touchable disabled by a string (an error message) and Android's text props render, as iOS ignores what its Text manager does not export", () => {
  const onPress = jest.fn();
  render(
    <View>
      <Button title="Save" disabled={'Network error'} onPress={onPress} />
      <Text textBreakStrategy="fancy" android_hyphenationFrequency="sometimes" dataDetectorType="phone">
        Call 555-0100
      </Text>
    </View>,
  );
  expect(screen.getByText('Call 555-0100')).toBeOnTheScreen();
  fireEvent.press(screen.getByText('Save'));
  expect(onPress).not.toHaveBeenCalled();
});

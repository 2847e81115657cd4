// An app's own code, unchanged (test-support/apps/basic: screens importing from 'react-native'), loaded with
// openApp from React Native 0.72.6's own package (the shared test data), rendered into a real daemon, driven as a
// phone is (touches through the daemon's touch handler, typing into its text fields, toggles, scrolls) and
// queried on the daemon's native tree. Each test checks both sides: what the app's handlers saw (src/log.js) and
// what the daemon holds (`inspect`).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { appSkip, useTestApp } from '../test-support/react-native-app.js';
import { within } from '../lib/react-native.js';

for (const architecture of ['paper', 'fabric'])
describe(`openApp: the app’s own screens over React Native 0.72.6 (${architecture})`, { skip: appSkip }, () => {
  let bridge;
  let app;
  let React;
  let log;
  // These scenarios are those of a session without layout (FlatList's initial window, app.layout by hand):
  // react-native-layout.test.js drives the same app with it.
  useTestApp({ architecture, layout: false }, (context) => ({ bridge, app, React, log } = context));
  const h = (...args) => React.createElement(...args);
  const screen = (name) => app.require(`./src/screens/${name}`).default;
  const inspect = (handle) => bridge.request({ op: 'inspect', tag: handle.tag });

  test('opens on the architecture asked for', () => assert.equal(app.architecture, architecture));

  test('a login screen: typing into controlled and uncontrolled fields, maxLength, a press through TouchableOpacity', async () => {
    const s = await app.render(h(screen('LoginScreen')));
    assert.equal(s.getByText('Please log in').component, 'RCTText');
    const name = s.getByPlaceholderText('Enter text');
    assert.equal(name.component, 'RCTSinglelineTextInputView');
    await app.press(name);
    assert.deepEqual(log.take(), ['focus name'], 'a press on a TextInput focuses it through its own code');
    assert.match((await inspect(name)).render, /focused/);
    await app.type(name, 'ana', { submit: true });
    assert.deepEqual(log.take(), ['name a', 'name an', 'name ana', 'submit ana', 'blur name'], 'no second focus: the field had it');
    assert.equal(s.getByDisplayValue('ana').tag, name.tag);
    assert.equal((await inspect(name)).props.text, 'ana');

    const password = s.getByPlaceholderText('Password');
    await app.type(password, '123456');
    assert.deepEqual(log.take(), ['password 1', 'password 12', 'password 123', 'password 1234']);
    assert.equal(s.getByPlaceholderText('Password').text, '1234', 'maxLength 4 keeps four characters natively');

    const code = s.getByPlaceholderText('Code');
    await app.type(code, '4a2');
    assert.deepEqual(log.take(), ['code 4', 'code 4a', 'code 42']);
    assert.equal(s.getByPlaceholderText('Code').text, '42', 'the controlled value JS reset wins over the typed one');
    assert.equal((await inspect(code)).props.text, '42');

    await app.type(s.getByPlaceholderText('Locked'), 'xyz');
    assert.deepEqual(log.take(), [], 'editable={false} types nothing');
    assert.equal(s.getByPlaceholderText('Locked').text, '');

    // TouchableOpacity's opacity goes to activeOpacity (0.2) while pressed, through the native driver, and back.
    const button = s.getByTestId('login-button');
    assert.equal((await inspect(button)).props.opacity, 1);
    await bridge.request({ op: 'touch', tag: s.getByText('Login').tag, phase: 'start' });
    await app.settled();
    assert.equal((await inspect(button)).props.opacity, 0.2);
    await bridge.request({ op: 'touch', tag: s.getByText('Login').tag, phase: 'end' });
    // Back to 1 in 250 ms (TouchableOpacity's press-out), as a phone's native driver runs it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.settled();
    assert.equal((await inspect(button)).props.opacity, 0.2, 'still on the way back');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await app.settled();
    assert.equal((await inspect(button)).props.opacity, 1);
    assert.deepEqual(log.take(), ['login ana 1234']);

    await app.clear(s.getByPlaceholderText('Password'));
    assert.deepEqual(log.take(), ['password ']);
    assert.equal(s.getByPlaceholderText('Password').text, '');
    await app.type(s.getByPlaceholderText('Password'), '1234');
    log.take();

    await app.press(s.getByText('Login'));
    assert.deepEqual(log.take(), ['login ana 1234']);
    assert.ok(s.getByText('Welcome ana'));
    assert.equal(s.queryByText('Please log in'), null);
    assert.equal(s.getByRole('button').component, 'RCTView');
    await s.unmount();
  });

  test('touchables: Pressable, TouchableHighlight, TouchableWithoutFeedback, Button, Text; disabled; nested; long press', async () => {
    const s = await app.render(h(screen('TouchablesScreen')));
    await app.press(s.getByText('Pressable'));
    assert.deepEqual(log.take(), ['pressIn', 'pressable', 'pressOut'], 'press-out after the minimum press duration, before press() resolved');
    assert.equal(s.getByTestId('count').text, 'Count: 1');
    await app.press(s.getByText('Pressable'));
    await app.press(s.getByTestId('pressable'));
    assert.equal(s.getByTestId('count').text, 'Count: 3', 'presses in a row each count');
    log.take();

    await app.press(s.getByText('Disabled'));
    assert.deepEqual(log.take(), []);
    await app.press(s.getByText('Highlight'));
    await app.press(s.getByText('Without feedback'));
    await app.press(s.getByText('Native button'));
    await app.press(s.getByText('Terms of use'));
    assert.deepEqual(log.take(), ['highlight', 'withoutFeedback', 'button', 'text link']);

    await app.press(s.getByText('Inner'));
    assert.deepEqual(log.take(), ['inner'], 'only the innermost touchable responds');
    await app.press(s.getByText('Outer'));
    assert.deepEqual(log.take(), ['outer']);

    await app.longPress(s.getByText('Pressable'));
    assert.deepEqual(log.take(), ['pressIn', 'longPress', 'pressOut']);
    assert.equal(s.getByTestId('count').text, 'Count: 3', 'a long press is not a press');
    await s.unmount();
  });

  test('a Switch controlled by state, a disabled one, a ScrollView, a Modal and Linking', async () => {
    const s = await app.render(h(screen('SettingsScreen')));
    const toggle = s.getByTestId('notifications');
    assert.equal(toggle.component, 'RCTSwitch');
    await app.toggle(toggle);
    assert.deepEqual(log.take(), ['switch true']);
    assert.ok(s.getByText('Notifications on'));
    assert.equal((await inspect(toggle)).props.value, true);
    await app.press(s.getByTestId('notifications'));
    assert.deepEqual(log.take(), ['switch false']);
    assert.equal((await inspect(toggle)).props.value, false);
    await app.press(s.getByTestId('locked'));
    assert.deepEqual(log.take(), []);
    assert.equal((await inspect(s.getByTestId('locked'))).props.value, true);

    // iOS's colors (PlatformColor, DynamicColorIOS), as RCTConvert reads them, in light mode.
    assert.equal((await inspect(s.getByTestId('settings'))).props.backgroundColor, '#f2f2f7ff');
    assert.equal((await inspect(s.getByTestId('title'))).props.color, '#123456ff');

    await app.scrollTo(s.getByTestId('settings-scroll'), { y: 120 });
    assert.deepEqual(log.take(), ['scroll 120']);

    assert.equal(s.queryByText('In the modal'), null);
    await app.press(s.getByText('Open modal'));
    assert.deepEqual(log.take(), ['modal shown']);
    const inModal = s.getByText('In the modal');
    await app.requestClose(inModal);
    // iOS calls onDismiss once the modal is gone: on paper through RCTModalManager's modalDismissed (React Native
    // 0.72's Modal on Fabric has no such call).
    assert.deepEqual(log.take(), architecture === 'paper' ? ['modal close requested', 'modal dismissed'] : ['modal close requested']);
    assert.equal(s.queryByText('In the modal'), null);

    await app.press(s.getByText('Help'));
    assert.deepEqual(app.nativeCalls('LinkingManager').filter((c) => c.method === 'openURL'), [{ method: 'openURL', args: ['https://example.com/help'] }]);
    await s.unmount();
  });

  test('images load from their files, Animated runs on both drivers, FlatList renders its initial window', async () => {
    const s = await app.render(h(screen('GalleryScreen')));
    assert.deepEqual(log.take().sort(), ['error yes', 'loaded 64 48']);
    assert.ok(s.getByText('Logo 64x48'));
    const logo = s.getByTestId('logo');
    assert.equal(logo.component, 'RCTImageView');
    assert.match((await inspect(logo)).render, /loaded/);

    assert.equal((await inspect(s.getByTestId('fader'))).props.opacity, 0);
    await app.press(s.getByText('Fade in'));
    await s.findByText('Fade in');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await app.settled();
    assert.deepEqual(log.take(), ['fade done true']);
    assert.equal((await inspect(s.getByTestId('fader'))).props.opacity, 1, 'the native driver’s final value is on the view');

    await app.press(s.getByText('Slide'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await app.settled();
    assert.deepEqual(log.take(), ['slide done true']);
    assert.deepEqual((await inspect(s.getByTestId('slider'))).props.transform, [{ translateX: 50 }]);

    const items = s.getAllByText(/^Item \d+$/);
    assert.equal(items.length, 10, 'FlatList’s initialNumToRender');
    assert.ok(s.getByText('Item 0'));
    assert.equal(s.queryByText('Item 50'), null);

    assert.equal((await inspect(s.getByTestId('spinner'))).props.opacity, 1, 'an endless native loop takes its final value');
    assert.deepEqual(log.take(), [], 'and keeps running');
    await s.unmount();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await app.settled();
    // Animated.loop on the native driver hands the loop to native and, as on a device, calls no callback of its own.
    assert.deepEqual(log.take(), []);
    assert.ok(app.nativeCalls('NativeAnimatedModule').some((c) => c.method === 'stopAnimation'), 'stopped on unmount');
  });

  test('a form: one field has the focus at a time, so moving it (return, a tap) blurs the field that had it first; autoFocus; the keyboard', async () => {
    const s = await app.render(h(screen('FormScreen')));
    // autoFocus: the field takes the focus once it is in the window, and the keyboard comes (336 points of 844).
    assert.deepEqual(log.take(), ['focus email', 'keyboard shown 336 508']);
    await app.type(s.getByPlaceholderText('Email'), 'ana', { submit: true });
    // The keyboard stays while the focus moves.
    assert.deepEqual(log.take(), ['submit email', 'blur email', 'focus password'], 'as UIKit orders them');
    assert.ok(s.getByText('invalid email'), 'the check the app runs on blur');
    assert.match((await inspect(s.getByPlaceholderText('Password'))).render, /focused/);
    assert.doesNotMatch((await inspect(s.getByPlaceholderText('Email'))).render, /focused/);
    await app.press(s.getByPlaceholderText('Email'));
    assert.deepEqual(log.take(), ['blur password', 'focus email']);
    // Keyboard.dismiss() blurs the field that has the focus, and the keyboard goes.
    await app.press(s.getByText('Done'));
    assert.deepEqual(log.take(), ['blur email', 'keyboard hidden']);
    // A field removed while it has the focus: its blur() on unmount reaches a view the commit deleted, which takes
    // nothing (on Fabric, RCTMountingManager finds no view for the tag), and the keyboard goes with it.
    await app.press(s.getByPlaceholderText('Password'));
    assert.deepEqual(log.take(), ['focus password', 'keyboard shown 336 508']);
    await app.press(s.getByText('No password'));
    assert.equal(s.queryByPlaceholderText('Password'), null);
    assert.deepEqual(log.take(), ['keyboard hidden']);
    await s.unmount();
  });

  test('queries as React Native Testing Library 12 runs them: what is hidden from accessibility, within, ByRole options, ByHintText', async () => {
    const s = await app.render(h(screen('AccessibilityScreen')));
    // Hidden: accessibilityElementsHidden, display none, aria-hidden; left out unless asked for.
    for (const secret of ['secret a', 'secret c', 'secret d']) {
      assert.equal(s.queryByText(secret), null, secret);
      assert.equal(s.getByText(secret, { includeHiddenElements: true }).text, secret);
      assert.equal(s.getAllByText(secret, { hidden: true }).length, 1);
    }
    assert.throws(() => s.getByText('secret a'), /Unable to find an element with text: secret a/);
    // importantForAccessibility is Android's: iOS's view config does not send it, so native never hides by it.
    assert.equal(s.getByText('secret b').text, 'secret b');
    // within: the subtree of a handle.
    assert.throws(() => s.getByText('Name'), /Found multiple elements/);
    const billing = within(s.getByTestId('billing'));
    assert.equal(billing.getByText('Name').component, 'RCTText');
    assert.equal(billing.getByPlaceholderText(/Name/).props.placeholder, 'Name on the card');
    assert.equal(billing.queryByPlaceholderText('Name'), null);
    assert.equal(s.within(s.getByTestId('profile')).getByHintText('Your full name').props.placeholder, 'Name');
    assert.equal(s.getByA11yHint('Saves the draft').tag, s.getByAccessibilityHint('Saves the draft').tag);
    // ByRole: accessibility elements only, with their state and value.
    assert.equal(s.getByRole('heading').text, 'Account', "role 'heading' reaches native as accessibilityRole 'header'");
    assert.equal(s.getByRole('header').tag, s.getByRole('heading').tag);
    assert.equal(s.queryByRole('summary'), null, 'a View with a role but no accessible is not an accessibility element');
    assert.equal(s.getAllByRole('button').length, 2);
    assert.equal(within(s.getByRole('button', { disabled: true })).getByText('Delete').text, 'Delete');
    assert.equal(within(s.getByRole('button', { disabled: false })).getByText('Save').text, 'Save');
    assert.equal(s.getByRole('button', { name: 'Save' }).tag, s.getByRole('button', { name: /sav/i, disabled: false }).tag);
    assert.equal(s.queryByRole('checkbox', { checked: true }), null);
    assert.equal(s.getByRole('checkbox', { name: 'I agree', checked: false }).props.accessibilityLabel, 'I agree');
    assert.equal(s.getByRole('switch', { checked: true }).props.testID, 'alerts');
    assert.equal(s.getByRole('adjustable', { value: { now: 3 } }).props.accessibilityLabel, 'Volume');
    // RNTL 12's aliases and its deprecated state and value queries.
    assert.equal(s.getByA11yLabel('Volume').tag, s.getByAccessibilityLabel('Volume').tag);
    assert.equal(s.getByA11yValue({ min: 0, max: 10, now: 3 }).props.accessibilityLabel, 'Volume');
    assert.equal(within(s.getByA11yState({ disabled: true })).getByText('Delete').text, 'Delete');
    assert.equal(s.queryByRole('adjustable', { value: { now: 4 } }), null);
    assert.throws(() => s.getByRole('button', { name: 'Save', disabled: true }), /role: "button", name: "Save", disabled state: true/);

    await app.press(s.getByRole('checkbox'));
    assert.ok(s.getByRole('checkbox', { checked: true }), 'a query after a press reads the state the app set');
    // A view modal for accessibility hides its siblings (accessibilityViewIsModal).
    await app.press(s.getByRole('button', { name: 'Save' }));
    assert.ok(s.getByText('Saved'));
    assert.equal(s.queryByText('Account'), null);
    assert.equal(s.getAllByRole('button').length, 1);
    assert.ok(s.getByText('Account', { includeHiddenElements: true }));
    await app.press(s.getByRole('button', { name: 'Close' }));
    assert.ok(s.getByText('Account'));
    assert.equal(s.queryByText('Saved'), null);
    await s.unmount();
  });

  test('layout: bridged lays nothing out, so onLayout runs when a test says where a view is (app.layout)', async () => {
    const s = await app.render(h(screen('LayoutScreen')));
    assert.ok(s.getByText('measuring'), 'no layout event before one is given');
    await app.layout(s.getByTestId('measured'), { x: 16, y: 40, width: 358, height: 120 });
    assert.ok(s.getByText('measured 358x120 at 16,40'));
    // A ScrollView's onContentSizeChange is its content view's layout.
    const [contentView] = (await inspect(s.getByTestId('scroll'))).children;
    await app.layout(contentView, { width: 390, height: 1200 });
    assert.ok(s.getByText('content 390x1200'));
    await assert.rejects(app.layout(s.getByTestId('measured'), { width: -1, height: 10 }), /width is -1, not a finite, non-negative number/);
    await assert.rejects(app.layout(s.getByTestId('measured'), { width: 10 }), /height is undefined/);
    await s.unmount();
  });

  test('dialogs: an alert with iOS\'s own OK, a prompt answered with what is typed, an action sheet', async () => {
    const s = await app.render(h(screen('DialogsScreen')));
    await app.press(s.getByText('Saved'));
    assert.deepEqual(app.alerts(), [{ title: 'Saved', message: null, buttons: ['OK'] }], 'RCTAlertManager gives a bare alert its OK');
    await app.pressAlertButton('OK');
    assert.deepEqual(app.alerts(), []);

    await app.press(s.getByText('Rename'));
    assert.deepEqual(app.alerts(), [{ title: 'Rename', message: 'A new name', buttons: ['OK', 'Cancel'] }]);
    await app.pressAlertButton('OK', { value: 'ana' });
    await app.press(s.getByText('Rename'));
    await app.pressAlertButton('OK');
    assert.deepEqual(log.take(), ['renamed ana', 'renamed draft'], 'what was typed, else the default value');

    await app.press(s.getByText('Photo'));
    assert.deepEqual(app.alerts(), [{ title: 'Photo', message: null, buttons: ['Cancel', 'Remove photo'], style: 'actionSheet' }]);
    await app.pressAlertButton('Remove photo');
    assert.deepEqual(log.take(), ['sheet 1']);
    assert.deepEqual(app.alerts(), []);
    await s.unmount();
  });

  test('carousels: a swipe let go past a page, or between cards of a snapToInterval row, settles on the nearest, and onMomentumScrollEnd says which', async () => {
    const s = await app.render(h(screen('CarouselScreen')));
    assert.ok(s.getByText('page 1 of 3'));
    const carousel = s.getByTestId('carousel');
    await app.scrollTo(carousel, { x: 500, contentWidth: 3 * 390 });
    assert.ok(s.getByText('page 2 of 3'));
    assert.deepEqual((await inspect(carousel)).props.contentOffset, { x: 390, y: 0 }, 'decelerated onto the page');
    await app.scrollTo(carousel, { x: 2000, contentWidth: 3 * 390 });
    assert.ok(s.getByText('page 3 of 3'));
    // Cards 300 wide, snapToInterval 300: let go at 460, the row settles on 600, the third card.
    const cards = s.getByTestId('cards');
    await app.scrollTo(cards, { x: 460, contentWidth: 5 * 300 });
    assert.ok(s.getByText('card 3 of 5'));
    assert.deepEqual((await inspect(cards)).props.contentOffset, { x: 600, y: 0 });
    await app.scrollTo(cards, { x: 1400, contentWidth: 5 * 300 });
    assert.deepEqual((await inspect(cards)).props.contentOffset, { x: 1110, y: 0 }, 'the nearest multiple, 1,500, is past the end of the content');
    assert.ok(s.getByText('card 5 of 5'));
    await s.unmount();
  });

  test('an endless feed: scrolled to its end, FlatList renders the rest of its rows on its own timer, then loads the next page', async () => {
    const s = await app.render(h(screen('FeedScreen')));
    const feed = s.getByTestId('feed');
    assert.equal(s.getAllByText(/^Post \d+$/).length, 10, 'initialNumToRender');
    // A drag to the end (the window is 390×844; the content 1,200 high): VirtualizedList renders more rows in
    // batches on its own timer (updateCellsBatchingPeriod), as on a device, and calls onEndReached only once the
    // last row is rendered.
    await app.scrollTo(feed, { y: 400, contentHeight: 1200 });
    assert.ok(await s.findByText('Post 19', {}, { timeout: 5000 }));
    assert.deepEqual(log.take(), []);
    await app.scrollTo(feed, { y: 401, contentHeight: 1200 });
    assert.deepEqual(log.take(), ['end reached 20']);
    assert.ok(await s.findByText('Post 39', {}, { timeout: 5000 }), 'the next page, rendered as the list fills its window');
    await s.unmount();
  });

  test('a screen of many of React Native’s APIs: alerts answered, pull to refresh, share, a pan responder, lists, the keyboard', async () => {
    const s = await app.render(h(screen('KitchenSinkScreen')));
    await new Promise((resolve) => setTimeout(resolve, 20)); // InteractionManager runs after a turn
    await app.settled();
    assert.ok(s.getByText('ios 390x844 @3 light no reader'), 'Platform, Dimensions, PixelRatio, Appearance, AccessibilityInfo');
    assert.ok(s.getByText('On the banner'));
    for (const text of ['Section Fruits', 'Apple', 'Banana', 'Section Vegetables', 'Carrot', 'Virtual 1', 'Virtual 3']) assert.ok(s.getByText(text));
    assert.deepEqual(log.take(), ['interactions done']);

    await app.press(s.getByText('Delete item'));
    assert.deepEqual(app.alerts(), [{ title: 'Delete?', message: 'This cannot be undone', buttons: ['Cancel', 'Delete'] }]);
    await app.pressAlertButton('Delete');
    assert.deepEqual(app.alerts(), []);
    await app.pullToRefresh(s.getByTestId('sink-scroll'));
    await app.press(s.getByText('Share'));
    await app.press(s.getByText('Drag me'));
    await app.type(s.getByPlaceholderText('Notes'), 'a\nb');
    await app.emitDeviceEvent('keyboardDidShow', { endCoordinates: { height: 300, screenX: 0, screenY: 544, width: 390 } });
    // The keyboard shown as the field took the focus, then the one the test emitted.
    assert.deepEqual(log.take(), ['deleted', 'refresh', 'shared sharedAction', 'pan grant', 'pan release', 'keyboard shown', 'keyboard shown']);
    assert.equal(s.getByPlaceholderText('Notes').text, 'a\nb');
    assert.ok(app.nativeCalls('Vibration').length > 0);
    assert.deepEqual(app.unknownProps(), {});
    await s.unmount();
  });

  test('around the components: AppState follows the native app state, an Animated timing with an easing ends, RTL and findNodeHandle', async () => {
    const s = await app.render(h(screen('LifecycleScreen')));
    assert.ok(s.getByText('State active'), "AppState.currentState: the native side's initial state");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.settled();
    assert.deepEqual(log.take(), ['rtl false node handle number', 'faded in true']);
    assert.equal((await inspect(s.getByTestId('lifecycle'))).props.opacity, 1, 'the JS-driven animation set its last value natively');
    await app.emitDeviceEvent('appStateDidChange', { app_state: 'background' });
    assert.deepEqual(log.take(), ['app state background']);
    assert.ok(s.getByText('State background'));
    await app.emitDeviceEvent('appStateDidChange', { app_state: 'active' });
    assert.deepEqual(log.take(), ['app state active']);
    // Appearance.setColorScheme overrides the system's light scheme; iOS tells the app after the call
    // (appearanceChanged), so useColorScheme re-renders then; null gives the system's back.
    const { Appearance } = app.require('react-native');
    assert.ok(s.getByText('Scheme light'));
    Appearance.setColorScheme('dark');
    assert.equal(Appearance.getColorScheme(), 'light', 'not in the call: once the windows changed');
    await app.settled();
    assert.equal(Appearance.getColorScheme(), 'dark');
    assert.ok(s.getByText('Scheme dark'));
    Appearance.setColorScheme(null);
    await app.settled();
    assert.ok(s.getByText('Scheme light'));
    assert.deepEqual(app.nativeCalls('Appearance').filter((call) => call.method === 'setColorScheme').map((call) => call.args), [['dark'], ['unspecified']]);
    await s.unmount();
    await app.emitDeviceEvent('appStateDidChange', { app_state: 'background' });
    assert.deepEqual(log.take(), [], 'the listener was removed with the screen');
  });

  test('queries find none, one and many, and findBy waits for what a timer brings', async () => {
    const s = await app.render(h(screen('TimerScreen')));
    assert.equal(s.queryByText('Ready'), null);
    assert.deepEqual(s.queryAllByText('Ready'), []);
    assert.throws(() => s.getByText('Ready'), /Unable to find an element with text: Ready[\s\S]*RCTText/);
    const ready = await s.findByText('Ready', {}, { timeout: 2000 });
    assert.equal(ready.text, 'Ready');
    await assert.rejects(s.findByText('Never', {}, { timeout: 50 }), /Unable to find/);
    await s.unmount();

    // waitFor and waitForElementToBeRemoved, as React Native Testing Library's: retried after each settled change.
    const w = await app.render(h(screen('TimerScreen')));
    let tries = 0;
    const text = await app.waitFor(() => {
      tries++;
      return w.getByText('Ready').text;
    }, { timeout: 2000 });
    assert.equal(text, 'Ready');
    assert.ok(tries >= 2, `the expectation ran ${tries} times: it threw while the screen waited`);
    await assert.rejects(app.waitFor(() => w.getByText('Never'), { timeout: 50 }), /Unable to find an element with text: Never/);
    await w.rerender(h(screen('LifecycleScreen')));
    await w.rerender(h(screen('TimerScreen')));
    assert.ok(w.getByText('Waiting'));
    await app.waitForElementToBeRemoved(() => w.queryByText('Waiting'), { timeout: 2000 });
    assert.ok(w.getByText('Ready'));
    await assert.rejects(app.waitForElementToBeRemoved(() => w.queryByText('Waiting')), /finds nothing at first/);
    await w.unmount();

    const t = await app.render(h(screen('TouchablesScreen')));
    assert.throws(() => t.getByText(/Pressable|Highlight/), /Found multiple elements/);
    assert.equal(t.getAllByText(/Pressable|Highlight/).length, 2);
    assert.equal(t.getByText('count: 0', { exact: false }).props.testID, 'count');
    const tree = t.toJSON();
    assert.equal(tree.tag, t.tag);
    assert.equal(tree.component, 'RCTView');
    assert.ok(Array.isArray(tree.children));
    await t.rerender(h(screen('TimerScreen')));
    assert.equal(t.toJSON().tag, tree.tag, 'the same root');
    assert.ok(t.getByText('Waiting'));
    assert.equal(t.queryByText('Pressable'), null);
    await t.unmount();
  });

  test('a screen that throws while rendering: render() rejects with its error and React’s component stack', async () => {
    await assert.rejects(app.render(h(screen('BrokenScreen'))), (error) => {
      assert.equal(error.message, 'the profile could not be drawn');
      assert.match(error.componentStack, /Exploding/);
      return true;
    });
  });

  test('every prop React Native 0.72.6’s core components sent is one the daemon declares', () => {
    // The screens above rendered View, Text, TextInput, ScrollView, FlatList, Image, Switch, Modal, ActivityIndicator,
    // SafeAreaView, the touchables and Animated: a prop the daemon does not declare would be left out and listed here.
    assert.deepEqual(app.unknownProps(), {});
  });

  test('a component asked for by name with no spec is served untyped: any prop, listed as unchecked', async () => {
    const s = await app.render(h(screen('UnservedScreen')));
    const map = s.getByTestId('map');
    assert.equal(map.component, 'AcmeMapView');
    const native = await inspect(map);
    assert.equal(native.props.zoom, 3);
    assert.deepEqual(native.props.region, { latitude: 48.85, longitude: 2.35 });
    assert.equal(native.props.flex, 1, 'its style is flattened as a View’s');
    assert.equal(native.untyped, true, 'inspect says nothing checks it');
    assert.equal('children' in native.props, false, 'its React children are views, never a prop');
    assert.equal(within(map).getByText('Marker').component, 'RCTText');
    assert.deepEqual(app.unknownComponents(), ['AcmeMapView']);
    const { components } = await bridge.request({ op: 'components' });
    assert.equal(components.AcmeMapView.untyped, true);
    await s.unmount();
  });

  test('a host component the daemon does not serve fails the render, naming it and how to serve it', async () => {
    const RawHostScreen = app.require('./src/screens/UnservedScreen').RawHostScreen;
    await assert.rejects(app.render(h(RawHostScreen)), (error) => {
      assert.match(error.message, /'AcmeRawView'/);
      assert.match(error.message, /--components/);
      assert.equal(error.code, 'unknown_component');
      return true;
    });
    assert.ok(app.unknownComponents().includes('AcmeRawView'));
  });
});

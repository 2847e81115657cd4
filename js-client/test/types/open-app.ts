// openApp's declarations as a test would use them (compiled under tsc --strict by types.test.mjs).
import { connect } from '../../index.js';
import { openApp, within, type NativeHandle, type Queries, type Screen } from '../../react-native.js';

export async function main(): Promise<void> {
  const bridge = await connect({ spawn: true });
  const app = await openApp(bridge, { root: '/path/to/app', window: { width: 390, insets: { top: 59 } }, defaultIncludeHiddenElements: false, colorScheme: 'dark' });
  const scheme: 'light' | 'dark' = app.colorScheme;
  const React = app.require('react');
  app.defaultIncludeHiddenElements = true;
  const { default: LoginScreen } = app.require('./screens/LoginScreen');
  const screen: Screen = await app.render(React.createElement(LoginScreen));
  const field: NativeHandle = screen.getByPlaceholderText('Enter text');
  await app.type(field, 'ana', { submit: true });
  await app.press(screen.getByText(/login/i));
  await app.longPress(screen.getByTestId('row-1'), { duration: 900 });
  const maybe: NativeHandle | null = screen.queryByLabelText('Close');
  const many: NativeHandle[] = await screen.findAllByRole('button', { name: 'OK' }, { timeout: 2000 });
  const text: string | null = field.text;
  const form: Queries = within(screen.getByTestId('form'));
  const save: NativeHandle = form.getByRole('button', { name: /save/i, disabled: false, value: { now: 1 } });
  const hint: NativeHandle | null = screen.within(save.tag).queryByHintText('Saves', { exact: false, includeHiddenElements: true });
  const hidden: NativeHandle[] = screen.getAllByA11yHint('x', { hidden: true, normalizer: (t) => t.trim() });
  console.log(hint, hidden.length, screen.getByRole('checkbox', { checked: 'mixed' }).tag);
  const off: NativeHandle[] = form.queryAllByA11yState({ disabled: true, checked: 'mixed' });
  const volume: NativeHandle | null = screen.queryByA11yValue({ now: 3, text: /loud/ });
  const label: NativeHandle = await screen.findByAccessibilityLabel('Close', {}, { timeout: 10 });
  console.log(off.length, volume, label, screen.getAllByA11yLabel(/x/).length);
  const busy: NativeHandle[] = screen.getAllByAccessibilityState({ busy: true });
  const full: NativeHandle | null = form.queryByAccessibilityValue({ max: 10, now: 10 });
  console.log(busy.length, full);
  const tag: number = field.tag;
  await app.settled();
  const shown: string | null = await app.waitFor(() => screen.getByText('Welcome').text, { timeout: 2000 });
  await app.waitForElementToBeRemoved(() => screen.queryByText('Loading'), { interval: 20 });
  console.log(shown, scheme);
  app.implementNativeModule('RNCAsyncStorage', { multiGet: async (keys: string[]) => keys.map((k) => [k, null]) });
  await app.emitNativeModuleEvent('RNCAsyncStorage', 'changed', { key: 'a' });
  await app.goBack();
  await app.goBack({ via: 'button' });
  await app.layout(field, { width: 320, height: 44 });
  console.log(app.nativeModule('RNCAsyncStorage').multiGet, app.untypedComponents(), app.specPackages?.length);
  console.log(screen.toJSON()?.children.length, maybe, many.length, text, tag, app.nativeCalls('LinkingManager'));
  await screen.unmount();
  await app.close();
}

// The app's own files (src/, importing only from 'react-native'), unchanged, with bridged as their native side:
// openApp loads them with the app's Babel and React Native's own package from node_modules, and the test drives
// the screen as a user drives a phone. It needs the app's node_modules (React Native 0.72.6's packages: `make
// test-example` links them from the shared test data); without them it skips, saying why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connect } from 'bridged-client';
import { openApp } from 'bridged-client/react-native';

const root = fileURLToPath(new URL('..', import.meta.url));
const skip = existsSync(new URL('../node_modules/react-native/package.json', import.meta.url))
  ? false
  : `no react-native in ${root}node_modules (make test-example links React Native 0.72.6's packages from ../shared/react-native-0.72.6 when it is there)`;

let bridge;
let app;

before(async () => {
  if (skip) return;
  bridge = await connect({ spawn: true, bin: process.env.BRIDGED_BIN, socket: process.env.BRIDGED_SOCKET });
  app = await openApp(bridge, { root });
});

after(async () => {
  await app?.close();
  await bridge?.close();
});

test('the app renders, counts presses, adds a todo and toggles dark mode', { skip }, async () => {
  const React = app.require('react');
  const { default: App } = app.require('./src/App');
  const screen = await app.render(React.createElement(App));

  assert.ok(screen.getByText('Likes:'));
  assert.ok(screen.getByText('never pressed'));
  await app.press(screen.getByLabelText('Add to Likes'));
  await app.press(screen.getByText('+1'));
  assert.ok(screen.getByText('pressed 2 times'));

  await app.type(screen.getByPlaceholderText('What next?'), 'Ship it', { submit: true });
  assert.ok(screen.getByText('3. Ship it'));
  assert.equal(screen.getByTestId('draft').text, '', 'the controlled field was reset by the app');

  await app.longPress(screen.getByText('1. Write the spec'));
  assert.equal(screen.queryByText(/Write the spec/), null);

  await app.toggle(screen.getByTestId('dark-mode'));
  const root = await bridge.request({ op: 'inspect', tag: screen.getByTestId('app').tag });
  assert.equal(root.props.backgroundColor, '#111111ff', 'the style the app chose, as native received it');
  await screen.unmount();
});

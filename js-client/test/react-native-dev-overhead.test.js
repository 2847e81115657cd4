// dev-overhead.cjs takes two pieces of development-only bookkeeping out of React Native's development renderer files:
// the copy of each fiber kept to replay a unit of work that threw, and the warning accessors of a released pooled
// event. Here: where each change applies (paper's and Fabric's files, LF or CRLF; never a production file or a
// text that is not React 18's), and what a renderer without them does, against the file as shipped, into a
// UIManager that records each call (no daemon: the renderer's side alone). That the UIManager receives the same calls
// in the same order is react-native-linear-paper.test.js's comparison, which loads both files as bridged does.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ViewConfigRegistry, viewConfigFor } from '../lib/react-native.js';
import { evaluateRenderer, privateModules } from '../lib/react-native/renderer/load.js';
import { isDevRendererFile, withoutDevOverhead } from '../lib/react-native/renderer/dev-overhead.cjs';
import { loadReact } from '../test-support/react-native.js';

const react = loadReact();
const paper = process.env.BRIDGED_RN_RENDERER;
const fabric = process.env.BRIDGED_RN_FABRIC_RENDERER;
const skip = !paper ? 'no paper renderer file: set BRIDGED_RN_RENDERER' : !react ? 'no React (node-react)' : false;
const COMPONENTS = {
  RCTView: {
    props: { testID: { type: 'string' } },
    // The touches React Native's view configs give every view (the responder system listens for the same names).
    events: Object.fromEntries(['touchStart', 'touchMove', 'touchEnd', 'touchCancel'].map((name) => [name, { bubbles: true }])),
  },
  RCTText: { props: {}, events: {} },
  RCTRawText: { props: { text: { type: 'string' } }, events: {} },
};
const PROP_TYPES = { string: { nativeType: 'NSString', deepDiffs: false, typeScript: 'string', reportedTypeScript: 'string' } };

/** The paper file, as shipped or as bridged loads it, with what it registers to receive touches and its errors. */
function loadPaper(asShipped) {
  const UIManager = new Proxy({}, { get: (_, name) => (name === 'then' ? undefined : () => {}) });
  const registry = new ViewConfigRegistry();
  for (const name of Object.keys(COMPONENTS)) registry.register(name, () => viewConfigFor(name, COMPONENTS, PROP_TYPES));
  const errors = [];
  let events = null;
  const emitter = { register: (module) => (events = module) };
  const modules = privateModules({ React: react.React, scheduler: react.scheduler, UIManager, registry, emitter, onError: (e) => errors.push(e) });
  const renderer = evaluateRenderer(paper, modules, { asShipped });
  return { renderer, errors, events: () => events };
}

/** `run` with console.error collected (React's own reports of an error it caught), what it logged returned. */
function quietly(run) {
  const logged = [];
  const original = console.error;
  console.error = (...args) => logged.push(args.map(String).join(' '));
  try {
    run();
  } finally {
    console.error = original;
  }
  return logged;
}

describe("React Native's development renderer without its replay copies and pooled-event accessors (dev-overhead.cjs)", { skip }, () => {
  test("both changes apply to paper's and Fabric's development files, whatever their lines end with; a production file runs as shipped", () => {
    const files = [paper, fabric].filter(Boolean);
    for (const file of files) {
      assert.ok(isDevRendererFile(file), file);
      const source = readFileSync(file, 'utf8');
      for (const text of [source, source.replaceAll('\r\n', '\n'), source.replaceAll(/\r?\n/g, '\r\n')]) {
        const { source: changed, changes } = withoutDevOverhead(text);
        assert.deepEqual(changes, ['replay', 'eventPool', 'freeze'], path.basename(file));
        assert.ok(!changed.includes('delete this.nativeEvent;'), 'the constructor no longer deletes accessors never defined');
      }
    }
    const production = path.join(path.dirname(paper), 'ReactNativeRenderer-prod.js');
    assert.equal(isDevRendererFile(production), false);
    // A text found twice (not React 18's file as published) is left alone: that change is not made.
    const twice = readFileSync(paper, 'utf8').replace('  beginWork$1 = function(current, unitOfWork, lanes) {', (line) => `${line}\n${line}`);
    assert.deepEqual(withoutDevOverhead(twice.replaceAll('\r\n', '\n')).changes, ['eventPool', 'freeze']);
    // A file whose top level does not define what a change calls (another React) keeps that part as shipped.
    const otherBeginWork = readFileSync(paper, 'utf8').replace('function beginWork(current, workInProgress, renderLanes) {', 'function beginWorkOf(current, workInProgress, renderLanes) {');
    assert.deepEqual(withoutDevOverhead(otherBeginWork).changes, ['eventPool', 'freeze']);
    const noFalse = readFileSync(paper, 'utf8').replace('function functionThatReturnsFalse() {', 'function returnsFalse() {');
    assert.deepEqual(withoutDevOverhead(noFalse).changes, ['replay', 'freeze']);
  });

  test('a component that throws renders once, as on react-test-renderer, and its error reaches the same boundary', () => {
    const { React } = react;
    const h = React.createElement;
    for (const asShipped of [true, false]) {
      const { renderer } = loadPaper(asShipped);
      let renders = 0;
      const caught = [];
      const Bomb = () => {
        renders += 1;
        throw new Error('boom');
      };
      class Boundary extends React.Component {
        state = { error: null };
        static getDerivedStateFromError(error) {
          return { error };
        }
        componentDidCatch(error) {
          caught.push(error.message);
        }
        render() {
          return this.state.error ? h('RCTView', { testID: 'fallback' }) : this.props.children;
        }
      }
      quietly(() => renderer.render(h(Boundary, null, h(Bomb)), 11));
      assert.deepEqual(caught, ['boom'], `asShipped: ${asShipped}`);
      // As shipped, the development build renders it again to replay the error (React's invokeGuardedCallback).
      assert.equal(renders, asShipped ? 2 : 1, `asShipped: ${asShipped}`);
      renderer.unmountComponentAtNode(11);
    }
  });

  test("the props a view config names are deep-frozen as a view is created, as shipped, and no other", () => {
    // The file as shipped walks every attribute of the view config (148 for React Native's View) for each view it
    // creates and freezes the props named there; bridged's walks the props and freezes the same ones.
    const { React } = react;
    const h = React.createElement;
    for (const asShipped of [true, false]) {
      const { renderer } = loadPaper(asShipped);
      const style = { padding: { nested: [1, 2] } };
      const other = { kept: { nested: true } };
      renderer.render(h('RCTView', { testID: 'frozen', style, notAnAttribute: other }), 31);
      assert.ok(Object.isFrozen(style) && Object.isFrozen(style.padding) && Object.isFrozen(style.padding.nested), `asShipped: ${asShipped}`);
      assert.ok(!Object.isFrozen(other) && !Object.isFrozen(other.kept), `asShipped: ${asShipped}`);
      renderer.unmountComponentAtNode(31);
    }
    const changed = withoutDevOverhead(readFileSync(paper, 'utf8')).source;
    assert.ok(!/for \(var key in viewConfig\.validAttributes\)/.test(changed), 'the view config is not walked');
  });

  test("a pooled event released after its dispatch reads null, as in React's production build, with no warning accessor", () => {
    const { React } = react;
    const h = React.createElement;
    for (const asShipped of [true, false]) {
      const { renderer, events } = loadPaper(asShipped);
      const ref = React.createRef();
      let kept = null;
      renderer.render(h('RCTView', { ref, onStartShouldSetResponder: () => true, onResponderGrant: (event) => (kept = event) }), 21);
      const target = ref.current._nativeTag;
      const touch = { target, identifier: 1, pageX: 0, pageY: 0, locationX: 0, locationY: 0, timestamp: 1 };
      const logged = quietly(() => {
        events().receiveTouches('topTouchStart', [touch], [0]);
        events().receiveTouches('topTouchEnd', [{ ...touch, timestamp: 2 }], [0]);
      });
      assert.ok(kept !== null, 'the responder was granted');
      const read = quietly(() => assert.equal(kept.nativeEvent, null, `asShipped: ${asShipped}`));
      const descriptor = Object.getOwnPropertyDescriptor(kept, 'nativeEvent');
      if (asShipped) {
        // The development build's accessor, which warns when read.
        assert.equal(typeof descriptor.get, 'function');
        assert.match(read.join('\n'), /This synthetic event is reused for performance reasons/);
      } else {
        assert.deepEqual({ value: descriptor.value, get: descriptor.get }, { value: null, get: undefined });
        assert.deepEqual(read, []);
      }
      assert.deepEqual(logged, [], 'the touches themselves logged nothing');
      renderer.unmountComponentAtNode(21);
    }
  });
});

// React Native's development renderer files (ReactNativeRenderer-dev.js, ReactFabric-dev.js), loaded without two
// pieces of development-only bookkeeping that together cost a press to its re-render a fifth of its time (644–725 →
// 521–546 µs, React Native 0.72.6, 2,000 presses of the example's Counter under preset: 'bridged-client'), and that
// react-test-renderer, which React Native's jest preset renders with, has neither of; and with a third check made
// for less (a 200-row mount, steady, 24.3 → 22.8 ms: medians of 8 alternated runs). Everything the app sees of its
// renderer is as shipped: its warnings ("not wrapped in act(...)", keys, hooks), its error messages, the calls the
// UIManager receives and their order. Each change is an exact text of React 18's file (text-changes.cjs), made only
// where the file defines what the new text calls; a file without them (another version, a production build) runs
// as shipped. Used by openApp's loader (require-hook.js), attachReactNative (load.js) and the jest preset's runtime
// (runtime.cjs); `rendererAsShipped` turns it off with the rest.
//
// 1. `replay`: before each unit of work the development build copies the fiber onto a new one (beginWork$1's
//    `assignFiberPropertiesInDEV(dummyFiber, unitOfWork)`, a FiberNode of some 30 fields per component rendered),
//    so that a component that throws can be rendered a second time inside invokeGuardedCallback, for a browser's
//    debugger to stop at the error as uncaught (React's `replayFailedUnitOfWorkWithInvokeGuardedCallback`, on in
//    React Native's builds, off in react-test-renderer's). Without it a component that throws renders once, as on
//    React Native's mocks, and the error reaches the same error boundary or the same test with the same stack.
//
// 2. `eventPool`: a released SyntheticEvent (the responder's, a touch's) has its fields set to null, as React's
//    production build does, where the development build redefines each one as an accessor that warns when read
//    ("This synthetic event is reused for performance reasons") and deletes them again in the constructor (which
//    leaves every pooled event an object V8 can no longer optimize). A handler that keeps an event past its
//    dispatch without `event.persist()` (Pressability persists its own) reads null either way; it is not warned.
//
// 3. `freeze`: as it creates a view, the development build deep-freezes each prop the view config names (so that a
//    style mutated after render throws, as on a phone), found by walking every attribute of the view config (148
//    for a View, 4.5 µs a view) and asking whether the props have it. It walks the props instead (a few) and asks
//    whether the view config has each as its own (what a walk of it finds: a view config is a plain object; an
//    untyped component's, a Proxy that answers any prop, has none to walk, and none is frozen either way).

'use strict';

const { replaceAll, replaceOnce } = require('./text-changes.cjs');

const REPLAY = {
  from: '  beginWork$1 = function(current, unitOfWork, lanes) {\n',
  to:
    '  beginWork$1 = function(current, unitOfWork, lanes) {\n' +
    '    return beginWork(current, unitOfWork, lanes); // dev-overhead.cjs: no replay copy of the fiber\n',
};

const EVENT_POOL = [
  {
    // React's production destructor, then nothing of the development one.
    from: '  destructor: function() {\n    var Interface = this.constructor.Interface;\n',
    to:
      '  destructor: function() {\n    var Interface = this.constructor.Interface;\n' +
      '    // dev-overhead.cjs: as React\'s production build releases an event\n' +
      '    for (var releasedName in Interface) this[releasedName] = null;\n' +
      '    this.dispatchConfig = null;\n    this._targetInst = null;\n    this.nativeEvent = null;\n' +
      '    this.isDefaultPrevented = functionThatReturnsFalse;\n    this.isPropagationStopped = functionThatReturnsFalse;\n' +
      '    this._dispatchListeners = null;\n    this._dispatchInstances = null;\n    return;\n',
  },
  {
    from:
      '  {\n    // these have a getter/setter for warnings\n    delete this.nativeEvent;\n    delete this.preventDefault;\n' +
      '    delete this.stopPropagation;\n    delete this.isDefaultPrevented;\n    delete this.isPropagationStopped;\n  }\n',
    to: '',
  },
  {
    from: '    {\n      delete this[propName]; // this has a getter/setter for warnings\n    }\n',
    to: '',
  },
];

const FREEZE = {
  from: '    for (var key in viewConfig.validAttributes) {\n      if (props.hasOwnProperty(key)) {\n',
  to:
    '    // dev-overhead.cjs: the props walked (a few), not every attribute of the view config (148 for a View)\n' +
    '    for (var key in props) {\n' +
    '      if (props.hasOwnProperty(key) && Object.prototype.hasOwnProperty.call(viewConfig.validAttributes, key)) {\n',
};

/** Whether `source` declares `function <signature> {` at its top level (a line of its own). */
function defines(source, signature) {
  return new RegExp(`(?:^|\\n)function ${signature.replace(/[()]/g, '\\$&')} \\{\\r?\\n`).test(source);
}

/**
 * A development renderer file's source without the bookkeeping above; `changes` names what was taken out
 * ('replay', 'eventPool', 'freeze'), empty for a file that runs as shipped.
 */
function withoutDevOverhead(source) {
  const changes = [];
  // Each change calls only what the file itself defines, at its top level (React 18's `beginWork`, its
  // `functionThatReturnsFalse`): a file where these are not found is left as shipped there.
  const replayed = defines(source, 'beginWork(current, workInProgress, renderLanes)') ? replaceOnce(source, REPLAY) : null;
  if (replayed !== null) {
    source = replayed;
    changes.push('replay');
  }
  const pooled = defines(source, 'functionThatReturnsFalse()') ? replaceAll(source, EVENT_POOL) : null;
  if (pooled !== null) {
    source = pooled;
    changes.push('eventPool');
  }
  const frozen = replaceOnce(source, FREEZE);
  if (frozen !== null) {
    source = frozen;
    changes.push('freeze');
  }
  return { source, changes };
}

/** Whether `file` is one of React Native's development renderer files, paper's or Fabric's. */
function isDevRendererFile(file) {
  return /[\\/]Libraries[\\/]Renderer[\\/]implementations[\\/](?:ReactNativeRenderer|ReactFabric)-dev\.js$/.test(file);
}

module.exports = { withoutDevOverhead, isDevRendererFile };

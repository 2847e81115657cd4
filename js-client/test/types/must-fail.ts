// Mistakes the declarations must catch: tsc --strict must FAIL on this file, with exactly the errors
// marked `// error TSxxxx` on the line before each (types.test.mjs checks both).
import { BridgeError, connect } from '../../index.js';

const bridge = await connect();
const button = await bridge.create('SwiftUIButton', { title: 'ok' });

try {
  await button.update({ count: 1 });
} catch (err) {
  // A typo'd error code: `code` is the union of the codes, so this comparison can never be true.
  // error TS2367
  if (err instanceof BridgeError && err.code === 'unknown_tagg') console.log(err.message);
}

// A prop of the wrong type: count is a number.
// error TS2322
await button.update({ count: 'three' });

// A prop the component does not have.
// error TS2345
await button.update({ colour: 'red' });

// A command the component does not have.
// error TS2345
await button.command('explode');

// A payload field that does not exist: countChange carries {count}.
// error TS2339
await button.on('countChange', (e) => e.payload.text);

// An event the component cannot emit (a TextField's direct event, on a button).
// error TS2345
await button.on('commit', () => {});

// Constructing an error with a code that does not exist.
// error TS2345
new BridgeError('no_such_code', 'nope');

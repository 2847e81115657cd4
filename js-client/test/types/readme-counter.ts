// The README's example (examples/counter.mjs), verbatim apart from the import path.
import { connect } from '../../index.js';

const bridge = await connect({ socket: process.argv[2], spawn: true });

const button = await bridge.create('SwiftUIButton', {
  title: 'Tap me',
  // A controlled component: press only reports the next count; the handler makes it so.
  onCountChange: async (event) => {
    await button.update({ count: event.payload.count });
  },
});

console.log((await button.inspect()).render);
for (let i = 0; i < 3; i++) {
  await button.command('press'); // resolves after the handler's update
  const { render, renders } = await button.inspect();
  console.log(`${render}  (render ${renders})`);
}

await button.delete();
await bridge.close();

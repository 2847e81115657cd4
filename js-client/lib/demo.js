// The counter from the article, as `bridged-client demo` runs it (examples/counter.mjs is the same).

/** A SwiftUIButton whose onCountChange handler writes the new count back; pressed `presses` times. */
export async function counterDemo(bridge, { presses = 3, print = console.log } = {}) {
  const button = await bridge.create('SwiftUIButton', {
    title: 'Tap me',
    onCountChange: async (event) => {
      await button.update({ count: event.payload.count });
    },
  });
  print((await button.inspect()).render);
  for (let i = 0; i < presses; i++) {
    await button.command('press');
    const { render, renders } = await button.inspect();
    print(`${render}  (render ${renders})`);
  }
  await button.delete();
}

// bridged-client/react-native as a TypeScript program uses it; checked with tsc --strict (types.test.mjs).
import { connect } from '../../index.js';
import { attachReactNative, playTrace, processColor } from '../../react-native.js';
import type { ReactNativeAttachment, Root, TraceStep, CommitError } from '../../react-native.js';

declare const React: { createElement(type: unknown, props?: object | null, ...children: unknown[]): unknown; createRef(): { current: object | null } };

const bridge = await connect({ spawn: true });
const trace: TraceStep[] = [];
const rn: ReactNativeAttachment = await attachReactNative(bridge, { renderer: '/path/to/ReactNativeRenderer-dev.js', trace });
const SwiftUIButton = rn.requireNativeComponent('SwiftUIButton');
const ref = React.createRef();
const root: Root = await rn.render(React.createElement(rn.View, { testID: 'screen' }, React.createElement(SwiftUIButton, { ref, title: 'Tap' })));
if (ref.current) rn.dispatchCommand(ref.current, 'press', []);
await rn.settled();
const tag: number | null = rn.findNodeHandle(ref.current);
if (tag !== null) await rn.native({ op: 'emit', tag, event: 'countChange', payload: { count: 2 } });
try {
  await root.render(React.createElement(rn.Text, null, 'hi'));
} catch (err) {
  const refused = err as CommitError;
  const where: number | undefined = refused.index;
  console.log(refused.code, where, refused.op?.op);
}
const argb: number | string = processColor('red');
await root.unmount();
await playTrace(bridge, trace);
console.log(root.tag, root.rootTag, argb, rn.architecture);
await rn.detach();
await bridge.close();

// Fabric: the same attachment, the manager and its traces.
import { appArchitecture, createFabricUIManager, playFabricTrace } from '../../react-native.js';
import type { FabricUIManager, NativeSide } from '../../react-native.js';
import type { Bridge } from '../../index.js';
export async function fabric(bridge: Bridge): Promise<void> {
  const wrapped: FabricUIManager[] = [];
  const trace: TraceStep[] = [];
  const rn: ReactNativeAttachment = await attachReactNative(bridge, {
    architecture: appArchitecture('/app', { RCT_NEW_ARCH_ENABLED: '1' }) === 'fabric' ? 'fabric' : 'auto',
    concurrentRoot: false,
    trace,
    fabricUIManager: (native: NativeSide) => {
      const manager = createFabricUIManager(native);
      wrapped.push(manager);
      return manager;
    },
  });
  const arch: 'paper' | 'fabric' = rn.architecture;
  const native: NativeSide = await playFabricTrace(bridge, trace, { onCheckpoint: (name, n) => n.daemonTag(1) });
  const tag: number | undefined = native.daemonTag(1);
  void arch;
  void tag;
}

// The DOM library's AbortSignal (checked with --lib es2022,dom) fits the client's options too.
import { connect } from '../../index.js';

const controller = new AbortController();
const bridge = await connect({ signal: controller.signal });
await bridge.request({ op: 'ping' }, { signal: controller.signal });
controller.abort();
await bridge.close({ signal: controller.signal });

// What the native side does on its own once a commit is applied, from the commit's ops (either architecture), as
// iOS's views do once they are in the window: an image view loads its source, a modal is presented (and, paper,
// reported dismissed once its view goes), a safe-area provider tells its insets, a text input with `autoFocus` takes
// the focus. What it owes is sent as one more batch.

import { commandOp, emitOp } from '../../command-op.js';
import { fileOf } from '../modules/image-loader.js';
import { TEXT_INPUT_COMPONENTS } from '../testing/queries.js';
import { imageSize } from './assets.js';

export class AfterCommit {
  #native;
  #keyboard;
  #paper;
  #emitDeviceEvent;
  #insets;
  /** Paper: the modals presented, renderer tag → their `identifier` (what RCTModalManager's modalDismissed names). */
  #modals = new Map();

  /**
   * @param {object} parts
   * @param {import('../native-side.js').NativeSide} parts.native
   * @param {{removed(): void}} parts.keyboard told after each commit (a focused field may have gone)
   * @param {'paper'|'fabric'} parts.architecture
   * @param {(name: string, body: object) => void} parts.emitDeviceEvent RCTDeviceEventEmitter.emit, once loaded
   * @param {() => object} parts.insets the window's metrics, as react-native-safe-area-context's provider sends them
   */
  constructor({ native, keyboard, architecture, emitDeviceEvent, insets }) {
    this.#native = native;
    this.#keyboard = keyboard;
    this.#paper = architecture === 'paper';
    this.#emitDeviceEvent = emitDeviceEvent;
    this.#insets = insets;
  }

  /** Paper: the modals presented and not dismissed, renderer tag → identifier (a copy). */
  get modals() {
    return new Map(this.#modals);
  }

  /** A commit's ops were applied in the daemon: what native does on its own is queued and sent as one batch. */
  applied(ops) {
    const native = this.#native;
    this.#keyboard.removed();
    let any = false;
    for (const op of ops) {
      if (op.op !== 'create' && op.op !== 'update') continue;
      // A view removed by the same batch (mounted and unmounted within one act) was never in the window.
      const rendererTag = native.rendererTag(op.tag);
      if (rendererTag === undefined) continue;
      const component = op.op === 'create' ? op.component : native.componentOf(rendererTag);
      if (component === 'RCTImageView' && op.props && 'source' in op.props && op.props.source != null) {
        any = this.#loadImage(op.tag, op.props.source) || any;
      }
      if (op.op !== 'create') continue;
      if (component === 'RCTModalHostView') {
        native.enqueue(commandOp(op.tag, 'present'));
        if (this.#paper) this.#modals.set(rendererTag, op.props?.identifier ?? 0);
        any = true;
      }
      if (component === 'RNCSafeAreaProvider') any = this.#sendInsets(op.tag) || any;
      // RCTBaseTextInputView focuses a field with autoFocus once it is in the window.
      if (TEXT_INPUT_COMPONENTS.has(component) && op.props?.autoFocus === true) {
        native.enqueue(commandOp(op.tag, 'focus'));
        any = true;
      }
    }
    if (any) native.flush().catch(() => {});
    this.#dismissedModals();
  }

  /**
   * Paper: a presented modal whose view is gone (its Modal closed or unmounted) was dismissed: RCTModalManager emits
   * `modalDismissed` with its identifier, and the Modal calls its `onDismiss`. (Fabric's Modal has no such call.)
   */
  #dismissedModals() {
    for (const [rendererTag, identifier] of this.#modals) {
      if (this.#native.daemonTag(rendererTag) !== undefined) continue;
      this.#modals.delete(rendererTag);
      queueMicrotask(() => this.#emitDeviceEvent('modalDismissed', { modalID: identifier }));
    }
  }

  /**
   * The image view (daemon tag `tag`) loads its source: a local file that exists (its size read from its header)
   * loads, any other local or data source fails; a network image (http, https) stays loading, as bridged fetches
   * nothing and a device would not fail it.
   */
  #loadImage(tag, source) {
    const first = Array.isArray(source) ? source[0] : source;
    const uri = typeof first === 'string' ? first : first?.uri;
    if (typeof uri !== 'string' || uri.length === 0 || /^https?:\/\//i.test(uri)) return false;
    const file = fileOf(uri);
    const size = file ? imageSize(file) : null;
    if (size) this.#native.enqueue(commandOp(tag, 'loaded', [uri, size.width, size.height]));
    else {
      const local = `bridged loads only local image files (file://): ${uri.slice(0, 80)}`;
      const message = file ? `no image at ${file}` : local;
      this.#native.enqueue(commandOp(tag, 'failed', [uri, message]));
    }
    return true;
  }

  /** A safe-area provider (daemon tag `tag`), once laid out, tells its children the window's insets, as native does. */
  #sendInsets(tag) {
    const events = this.#native.components.RNCSafeAreaProvider?.events ?? {};
    const event = Object.keys(events).find(
      (e) => events[e].registrationName === 'onInsetsChange' || /insetsChange$/i.test(e),
    );
    if (!event) return false;
    this.#native.enqueue(emitOp(tag, event, this.#insets()));
    return true;
  }
}

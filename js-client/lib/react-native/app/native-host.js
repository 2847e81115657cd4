// The native-module host of an open app: the modules its react-native package finds on `nativeModuleProxy`
// (../modules/, one file each; the app's specs; the ones a test gives), the device events they emit
// (RCTDeviceEventEmitter), and the alerts and action sheets they show, kept until a test presses a button.

import { NativeModules } from '../modules/index.js';
import { callerFile, interop, packageOf, stackFiles } from './components.js';

export class NativeHost {
  #modules;
  /** React Native's RCTDeviceEventEmitter, once the app's package is loaded. */
  #deviceEmitter = null;
  /** Alerts shown and not answered. */
  alerts = new Alerts();

  /** @param {object} app the App the modules are made for (each module's `create(app)`) */
  constructor(app) {
    this.#modules = new NativeModules(app);
  }

  /** The app's modules (modules/index.js). */
  get modules() {
    return this.#modules;
  }

  /** React Native is loaded: device events go through its RCTDeviceEventEmitter (`loader`: the app's require). */
  start(loader) {
    this.#deviceEmitter = interop(loader.require('react-native/Libraries/EventEmitter/RCTDeviceEventEmitter'));
  }

  /** Emits a device event (RCTDeviceEventEmitter.emit), as native modules do; nothing before React Native is loaded. */
  emit(eventName, body) {
    this.#deviceEmitter?.emit(eventName, body);
  }

  /** The native module `name` as the app's JavaScript reaches it (served, from a spec, an Expo module, or given). */
  module(name, { isExpo }) {
    const module = this.#modules.get(name) ?? (isExpo ? this.#modules.expo(name) : undefined);
    if (!module) {
      throw new Error(
        `app.nativeModule('${name}'): no native module of that name is served or declared by a spec of the app's ` +
          'dependencies',
      );
    }
    return module;
  }

  /**
   * TurboModuleRegistry.getEnforcing's error for a module nobody serves names it, the package that asked for it,
   * and how to serve it (`registry`: the app's TurboModuleRegistry, when it has one).
   */
  explainMissingModules(registry) {
    if (!registry || typeof registry.getEnforcing !== 'function') return;
    const original = registry.getEnforcing;
    const modules = this.#modules;
    try {
      registry.getEnforcing = function getEnforcing(name) {
        if (!modules.has(name)) throw missingModule(name, callerFile(stackFiles(), null));
        return original.apply(this, arguments);
      };
    } catch {
      // A module whose exports cannot be replaced keeps React Native's own message.
    }
  }
}

/** The error of TurboModuleRegistry.getEnforcing(name) for a module nobody serves, asked for from `caller`. */
export function missingModule(name, caller) {
  const pkg = caller ? packageOf(caller) : null;
  const error = new Error(
    `bridged serves no native module '${name}'${pkg ? ` (asked for by the package '${pkg}')` : ''}, and no spec of ` +
      `the app's dependencies declares it: give it with openApp(bridge, { nativeModules: { ${name}: { …its ` +
      "methods } } }), or add its spec to its package (package.json's codegenConfig.jsSrcsDir)",
  );
  error.code = 'unknown_native_module';
  error.module = name;
  return error;
}

/**
 * The alerts on screen (AlertManager.alertWithArgs, ActionSheetManager.showActionSheetWithOptions), oldest first,
 * each kept until a test presses one of its buttons.
 */
export class Alerts {
  /** `{args, callback}`, oldest first. */
  #shown = [];

  /**
   * AlertManager.alertWithArgs: the alert is kept until a test presses one of its buttons. With none, iOS gives it
   * its own (RCTAlertManager): `OK` for an alert, `OK` and `Cancel` for a prompt.
   */
  alert(args, callback) {
    const alert = { ...(args ?? {}) };
    if (!Array.isArray(alert.buttons) || alert.buttons.length === 0) {
      alert.buttons = !alert.type || alert.type === 'default' ? [{ 0: 'OK' }] : [{ 0: 'OK' }, { 1: 'Cancel' }];
    }
    this.#shown.push({ args: alert, callback });
  }

  /**
   * ActionSheetManager.showActionSheetWithOptions: iOS presents it as an alert in the sheet style, kept until a test
   * presses one of its buttons; the callback is given the button's index.
   */
  actionSheet(options, callback) {
    const buttons = (options?.options ?? []).map((text, index) => ({ [index]: String(text) }));
    const args = { title: options?.title ?? '', message: options?.message ?? undefined, buttons, style: 'actionSheet' };
    this.#shown.push({ args, callback });
  }

  /** `[{ title, message, buttons: [text…], style? }]`, oldest first. */
  list() {
    return this.#shown.map(({ args }) => ({
      title: args.title ?? '',
      message: args.message ?? null,
      buttons: args.buttons.map((button) => Object.values(button)[0]),
      ...(args.style ? { style: args.style } : {}),
    }));
  }

  /**
   * Presses the button `text` of the newest alert that has one, as iOS's alert does: the alert goes, its callback is
   * given the button's index (and, for a prompt, `value` or its default). What the callback throws goes to `fail`.
   * Throws, listing the alerts, when none has such a button.
   */
  press(text, value, fail) {
    for (let i = this.#shown.length - 1; i >= 0; i--) {
      const { args, callback } = this.#shown[i];
      const button = args.buttons.find((b) => Object.values(b)[0] === text);
      if (!button) continue;
      this.#shown.splice(i, 1);
      try {
        callback?.(Number(Object.keys(button)[0]), promptValue(args, value));
      } catch (error) {
        fail(error);
      }
      return;
    }
    throw new Error(`app.pressAlertButton(): no alert has a button '${text}' (alerts: ${JSON.stringify(this.list())})`);
  }
}

/**
 * What a prompt gives its callback: `value`, else its `defaultValue` (`{ login, password }` for `login-password`);
 * nothing for an alert.
 */
function promptValue(args, value) {
  if (!args.type || args.type === 'default') return undefined;
  if (value !== undefined) return value;
  return args.type === 'login-password' ? { login: args.defaultValue ?? '', password: '' } : (args.defaultValue ?? '');
}

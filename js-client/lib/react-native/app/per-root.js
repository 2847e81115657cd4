// What an app's installed packages say (which carry native specs, which declare Expo modules), read once per process
// while they stay as they were. A jest worker opens the same app for each of its test files, and each read walks
// node_modules: 10 to 20 ms a file (measured over an Expo app with react-native-screens, -svg and -safe-area).
// Installing, removing or upgrading a package rewrites `node_modules` (its entries) or `package.json`, whose
// modification times are the key: a process that opens the app after that reads it again.

import { statSync } from 'node:fs';
import path from 'node:path';

/** What `root`'s answer rests on: the modification times of its package.json, node_modules and modules/. */
export function rootStamp(root) {
  return ['package.json', 'node_modules', 'modules']
    .map((name) => statSync(path.join(root, name), { throwIfNoEntry: false })?.mtimeMs ?? '-')
    .join(':');
}

/**
 * `read(root)` kept per root while `rootStamp(root)` is unchanged; at most `limit` roots (the oldest forgotten
 * first). The value is shared by every caller: it must be read, never changed.
 */
export function perRoot(read, { limit = 16 } = {}) {
  const kept = new Map();
  const answer = (root) => {
    const stamp = rootStamp(root);
    const known = kept.get(root);
    if (known !== undefined && known.stamp === stamp) return known.value;
    const value = read(root);
    kept.delete(root);
    kept.set(root, { stamp, value });
    if (kept.size > limit) kept.delete(kept.keys().next().value);
    return value;
  };
  answer.forget = () => kept.clear();
  return answer;
}

// Test support for the replay tests: one daemon per set of flags a recording needs (its meta record's limits,
// and the codegen schemas of Tests/Schemas that declare the components it describes).
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseLossless } from '../lib/json.js';
import { LIMITS } from '../lib/replay.js';
import { startDaemon } from './daemon.js';

export const CORPUS = fileURLToPath(new URL('../../Tests/BridgeTests/Sessions/', import.meta.url));
const SCHEMAS = fileURLToPath(new URL('../../Tests/Schemas/', import.meta.url));

/** The serve flags for a recording's limits (every one it names, default or not). */
export function flagsFor(limits) {
  if (!limits) return [];
  const byName = new Map(LIMITS.map((limit) => [limit.name, limit]));
  return parseLossless(limits).entries.flatMap(([name, value]) => {
    if (!byName.has(name)) throw new Error(`a recording's limit ${name} is not in lib/replay.js's LIMITS`);
    return [byName.get(name).flag, value.text];
  });
}

/** The component names each schema of Tests/Schemas declares, by file. */
const schemaComponents = new Map();
for (const file of (await readdir(SCHEMAS)).filter((f) => f.endsWith('.json')).sort()) {
  const schema = JSON.parse(await readFile(`${SCHEMAS}${file}`, 'utf8'));
  const names = Object.values(schema.modules).flatMap((module) => Object.keys(module.components ?? {}));
  schemaComponents.set(`${SCHEMAS}${file}`, names);
}

/**
 * The --components flags that give a daemon the components a recording's meta record describes (those of
 * codegen schemas): the schemas of Tests/Schemas that declare them.
 */
function componentFlagsFor(text) {
  const first = text.split('\n').find((line) => line.trim() !== '');
  const meta = first === undefined ? {} : JSON.parse(first);
  const described = Object.keys(meta.dir === 'meta' ? (meta.components ?? {}) : {});
  return [...schemaComponents]
    .filter(([, names]) => names.some((n) => described.includes(n)))
    .flatMap(([path]) => ['--components', path]);
}

/** Daemons started for recordings, one per set of flags; `stop()` ends them all. */
export class ReplayDaemons {
  #daemons = new Map();

  /** A daemon started with the limits and schema components a recording names. */
  async for(limits, text = '') {
    const args = [...flagsFor(limits), ...(text ? componentFlagsFor(text) : [])];
    const key = args.join(' ');
    if (!this.#daemons.has(key)) this.#daemons.set(key, await startDaemon(args));
    return this.#daemons.get(key);
  }

  async stop() {
    for (const daemon of this.#daemons.values()) await daemon.stop();
  }
}

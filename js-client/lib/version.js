import { readFileSync } from 'node:fs';

/** The version in package.json; the client sends `bridged-client/<version>` in hello. */
export const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
export const CLIENT_NAME = `bridged-client/${VERSION}`;

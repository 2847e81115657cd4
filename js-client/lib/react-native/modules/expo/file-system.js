// ExponentFileSystem (expo-file-system's EXFileSystem.m) on real files: the app's sandbox is a folder of its own
// under the system's temporary folder (`Documents/`, `Library/Caches/`), removed when the process ends; its URIs
// are `file://` ones, as on iOS. Reads and writes inside the sandbox are allowed; outside it, a readable file may
// be read (EXFilePermissionModule's external permissions: the app's bundled assets) and nothing is written. Each
// rejection has EXFileSystem.m's code and message. A download from the network rejects: bridged has no network;
// a `file://` source is copied.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const name = 'ExponentFileSystem';

/** The sandboxes made in this process, removed at its exit. */
const sandboxes = new Set();
let cleanupInstalled = false;

/** A new sandbox for the app at `root`: `{ folder, documents, caches }` (real paths). */
export function makeSandbox(root) {
  const base = path.join(tmpdir(), `bridged-expo-${process.getuid?.() ?? 'user'}`);
  fs.mkdirSync(base, { recursive: true });
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(base, `${path.basename(root).replace(/[^\w.-]/g, '_')}-`)));
  const documents = path.join(folder, 'Documents');
  const caches = path.join(folder, 'Library', 'Caches');
  fs.mkdirSync(documents, { recursive: true });
  fs.mkdirSync(caches, { recursive: true });
  sandboxes.add(folder);
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.on('exit', () => {
      for (const f of sandboxes) fs.rmSync(f, { recursive: true, force: true });
    });
  }
  return { folder, documents, caches };
}

/** A folder's `file://` URI, with its trailing slash (NSURL's for a directory). */
export function folderURI(folder) {
  return `${pathToFileURL(folder).href}/`;
}

function codedError(code, message) {
  return Object.assign(new Error(message), { code });
}

/** `context`: `{ sandbox: () => { documents, caches }, bundle: the app's root }`. */
export function create(context) {
  const sandbox = () => context.sandbox();
  const writable = (file) => {
    const { documents, caches } = sandbox();
    const normal = path.resolve(file);
    return [documents, caches].some((dir) => normal === dir || normal.startsWith(dir + path.sep));
  };
  const readable = (file) => {
    if (writable(file)) return true;
    try {
      fs.accessSync(file, fs.constants.R_OK);
      return true;
    } catch {
      return false;
    }
  };
  /** The path of a `file://` URI (a bare path is taken as one), or a rejection for another scheme. */
  const fileOf = (uri, { bare = false } = {}) => {
    const text = String(uri ?? '');
    if (text.startsWith('file://')) {
      try {
        return fileURLToPath(text.replace(/\/+$/, '') || text);
      } catch {
        throw codedError('ERR_FILESYSTEM_INVALID_URI', `Unsupported URI scheme for '${text}'`);
      }
    }
    if (bare && text.startsWith('/')) return text;
    throw codedError('ERR_FILESYSTEM_INVALID_URI', `Unsupported URI scheme for '${text}'`);
  };
  const mustRead = (file, uri, what = 'File') => {
    if (!readable(file)) throw codedError('ERR_FILESYSTEM_NO_PERMISSIONS', `${what} '${uri}' isn't readable.`);
  };
  const mustWrite = (file, uri, message) => {
    if (!writable(file)) throw codedError('ERR_FILESYSTEM_NO_PERMISSIONS', message ?? `File '${uri}' isn't writable.`);
  };
  const sizeOf = (file) => {
    const stat = fs.statSync(file);
    if (!stat.isDirectory()) return stat.size;
    return fs.readdirSync(file).reduce((sum, entry) => sum + sizeOf(path.join(file, entry)), 0);
  };
  const copy = (from, to) => fs.cpSync(from, to, { recursive: true, force: true });

  return {
    getConstants: () => ({
      documentDirectory: folderURI(sandbox().documents),
      cacheDirectory: folderURI(sandbox().caches),
      bundleDirectory: folderURI(context.bundle),
    }),
    async getInfoAsync(uri, options) {
      const file = fileOf(uri, { bare: true });
      mustRead(file, uri);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat) return { exists: false, isDirectory: false };
      return {
        exists: true,
        isDirectory: stat.isDirectory(),
        uri: stat.isDirectory() ? folderURI(file) : pathToFileURL(file).href,
        ...(options?.md5 && !stat.isDirectory() ? { md5: createHash('md5').update(fs.readFileSync(file)).digest('hex') } : {}),
        size: sizeOf(file),
        modificationTime: stat.mtimeMs / 1000,
      };
    },
    async readAsStringAsync(uri, options) {
      const file = fileOf(uri, { bare: true });
      mustRead(file, uri);
      const encoding = String(options?.encoding ?? 'utf8').toLowerCase();
      let data;
      try {
        data = fs.readFileSync(file);
      } catch {
        throw codedError('ERR_FILESYSTEM_CANNOT_READ_FILE', `File '${uri}' could not be read.`);
      }
      if (encoding === 'base64') {
        const position = typeof options?.position === 'number' ? options.position : 0;
        const end = typeof options?.length === 'number' ? position + options.length : undefined;
        return data.subarray(position, end).toString('base64');
      }
      return data.toString('utf8');
    },
    async writeAsStringAsync(uri, string, options) {
      const file = fileOf(uri);
      mustWrite(file, uri);
      const encoding = String(options?.encoding ?? 'utf8').toLowerCase();
      try {
        fs.writeFileSync(file, encoding === 'base64' ? Buffer.from(String(string), 'base64') : String(string));
      } catch {
        if (encoding === 'base64') throw codedError('ERR_FILESYSTEM_UNKNOWN_FILE', `No such file or directory '${file}'`);
        throw codedError('ERR_FILESYSTEM_CANNOT_WRITE_TO_FILE', `File '${uri}' could not be written.`);
      }
      return null;
    },
    async deleteAsync(uri, options) {
      const file = fileOf(uri);
      mustWrite(path.dirname(file), uri, `Location '${uri}' isn't deletable.`);
      if (!fs.existsSync(file)) {
        if (options?.idempotent) return null;
        throw codedError('ERR_FILESYSTEM_CANNOT_FIND_FILE', `File '${uri}' could not be deleted because it could not be found.`);
      }
      fs.rmSync(file, { recursive: true, force: true });
      return null;
    },
    async moveAsync(options) {
      if (!options?.from) throw codedError('ERR_FILESYSTEM_MISSING_PARAMETER', 'Need a `from` location.');
      const from = fileOf(options.from);
      mustWrite(path.dirname(from), options.from, `Location '${options.from}' isn't movable.`);
      if (!options?.to) throw codedError('ERR_FILESYSTEM_MISSING_PARAMETER', 'Need a `to` location.');
      const to = fileOf(options.to);
      mustWrite(to, options.to);
      try {
        fs.rmSync(to, { recursive: true, force: true });
        fs.renameSync(from, to);
      } catch {
        throw codedError('ERR_FILESYSTEM_CANNOT_MOVE_FILE', `File '${options.from}' could not be moved to '${options.to}'.`);
      }
      return null;
    },
    async copyAsync(options) {
      if (!options?.from) throw codedError('ERR_FILESYSTEM_MISSING_PARAMETER', 'Need a `from` location.');
      const from = fileOf(options.from);
      mustRead(from, options.from);
      if (!options?.to) throw codedError('ERR_FILESYSTEM_MISSING_PARAMETER', 'Need a `to` location.');
      const to = fileOf(options.to);
      mustWrite(to, options.to);
      if (!fs.existsSync(from)) {
        throw codedError('ERR_FILESYSTEM_CANNOT_FIND_FILE', `File '${options.from}' could not be copied because it could not be found.`);
      }
      try {
        copy(from, to);
      } catch {
        throw codedError('ERR_FILESYSTEM_CANNOT_COPY_FILE', `File '${options.from}' could not be copied to '${options.to}'.`);
      }
      return null;
    },
    async makeDirectoryAsync(uri, options) {
      const file = fileOf(uri);
      mustWrite(file, uri, `Directory '${uri}' could not be created because the location isn't writable.`);
      try {
        if (options?.intermediates) fs.mkdirSync(file, { recursive: true });
        else fs.mkdirSync(file);
      } catch {
        throw codedError('ERR_FILESYSTEM_CANNOT_CREATE_DIRECTORY', `Directory '${uri}' could not be created.`);
      }
      return null;
    },
    async readDirectoryAsync(uri) {
      const file = fileOf(uri);
      mustRead(file, uri, 'Location');
      try {
        return fs.readdirSync(file);
      } catch {
        throw codedError('ERR_FILESYSTEM_CANNOT_READ_DIRECTORY', `Directory '${uri}' could not be read.`);
      }
    },
    async downloadAsync(url, localUri, options) {
      const to = fileOf(localUri);
      if (!fs.existsSync(path.dirname(to))) {
        throw codedError(
          'ERR_FILESYSTEM_WRONG_DESTINATION',
          `Directory for '${localUri}' doesn't exist. Please make sure directory '${path.dirname(to)}' exists before calling downloadAsync.`,
        );
      }
      mustWrite(to, localUri);
      if (!String(url).startsWith('file://')) {
        throw codedError(
          'ERR_FILESYSTEM_NETWORK',
          `bridged: downloadAsync('${url}'): a headless phone under bridged has no network (only file:// URLs are copied)`,
        );
      }
      const from = fileOf(url);
      mustRead(from, url);
      fs.copyFileSync(from, to);
      return {
        uri: pathToFileURL(to).href,
        status: 200,
        headers: {},
        mimeType: null,
        ...(options?.md5 ? { md5: createHash('md5').update(fs.readFileSync(to)).digest('hex') } : {}),
      };
    },
    async getFreeDiskStorageAsync() {
      const stat = fs.statfsSync(sandbox().folder);
      return stat.bavail * stat.bsize;
    },
    async getTotalDiskCapacityAsync() {
      const stat = fs.statfsSync(sandbox().folder);
      return stat.blocks * stat.bsize;
    },
  };
}

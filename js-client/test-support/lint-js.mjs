// `make lint`'s JavaScript part, as swift format's is the Swift part: the repository's JavaScript files (those git
// tracks, and new ones not ignored) held to a size, and the folders listed in STRICT to .swift-format's 120 columns.
// A finding prints as `file:line: what`, and the run fails. `node js-client/test-support/lint-js.mjs [root]`.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The most lines a JavaScript file may have: past it, split it by concern (as app/open-app.js was). */
export const MAX_FILE_LINES = 1000;
/**
 * Files over MAX_FILE_LINES until they are split, each with the most lines it may have meanwhile (what it had when
 * it was listed, and a little room): a file past its own cap fails too. Remove a file's entry once it is split.
 */
export const TO_SPLIT = Object.freeze({});
/** The most columns a line may have in the paths of STRICT, as in Swift (.swift-format's lineLength). */
export const MAX_COLUMNS = 120;
/**
 * Paths (a folder ending in `/`, a file, or a file name's start) held to MAX_COLUMNS. The rest of the tree predates
 * the limit; a folder joins the list once its files meet it, and never leaves it.
 */
export const STRICT = Object.freeze([
  'js-client/lib/react-native/app/',
  'js-client/test/parts/app-',
  'js-client/test/react-native-after-commit.test.js',
  'js-client/test/react-native-host-components.test.js',
  'js-client/test/react-native-module-specs.test.js',
  'js-client/test-support/lint-js.mjs',
]);

const JS = /\.(?:js|mjs|cjs)$/;

/**
 * The JavaScript files of the repository at `root`: tracked, or new and not ignored; none under node_modules. Outside
 * a git checkout (a copy of the tree), every file below `root` but node_modules, .build and hidden folders.
 */
export function javaScriptFiles(root) {
  let listed;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).split('\0');
  } catch {
    listed = walk(root, '');
  }
  return [...new Set(listed)].filter((file) => JS.test(file) && !file.includes('node_modules/')).sort();
}

/** The files below `folder` (relative to `root`, `/`-separated), node_modules, .build and hidden folders left out. */
function walk(root, folder) {
  const files = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const name = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) files.push(...walk(root, name));
    } else if (entry.isFile()) files.push(name);
  }
  return files;
}

/** The findings for one file's `text` (`file` relative to the root, `/`-separated): `file:line: what`. */
export function lintText(file, text, toSplit = TO_SPLIT) {
  const findings = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const cap = toSplit[file] ?? MAX_FILE_LINES;
  if (lines.length > cap) findings.push(`${file}:1: ${lines.length} lines, more than ${cap}: split it by concern`);
  if (STRICT.some((prefix) => file.startsWith(prefix))) {
    lines.forEach((line, index) => {
      const columns = [...line].length;
      if (columns > MAX_COLUMNS) findings.push(`${file}:${index + 1}: ${columns} columns, more than ${MAX_COLUMNS}`);
    });
  }
  return findings;
}

/** Every finding in the repository at `root`. */
export function lint(root) {
  const findings = [];
  for (const file of javaScriptFiles(root)) {
    let text;
    try {
      text = readFileSync(path.join(root, file), 'utf8');
    } catch (error) {
      if (error.code === 'ENOENT') continue; // deleted in the work tree, not yet in the index
      throw error;
    }
    findings.push(...lintText(file, text));
  }
  return findings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url)));
  const findings = lint(root);
  for (const finding of findings) console.error(finding);
  if (findings.length > 0) {
    console.error(`lint-js: ${findings.length} finding(s) (files at most ${MAX_FILE_LINES} lines; ${MAX_COLUMNS} ` +
      `columns in ${STRICT.join(', ')})`);
    process.exit(1);
  }
  console.log(`lint-js: ${javaScriptFiles(root).length} JavaScript files, no finding`);
}

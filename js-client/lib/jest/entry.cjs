// The preset's entry points as jest loads them (testEnvironment, globalSetup, globalTeardown): CommonJS that loads
// bridged's ES modules with Node's own import(), so that they never go through the app's Babel. An app's jest config
// that sets its own transformIgnorePatterns replaces the preset's, and a bridged-client installed as a link to a
// checkout resolves outside node_modules: jest would then send these files through babel-jest. Babel may transform
// this file (it is plain CommonJS); the import() below is built at run time so that it stays Node's.
const path = require('node:path');
const { pathToFileURL } = require('node:url');

// eslint-disable-next-line no-new-func
const importModule = new Function('url', 'return import(url)');

/** The ES module of this folder named `file`, loaded by Node. */
function load(file) {
  return importModule(pathToFileURL(path.join(__dirname, file)).href);
}

module.exports = { load };

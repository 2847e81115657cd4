// jest's globalTeardown of preset: 'bridged-client': global-teardown.js, loaded by Node (entry.cjs).
const { load } = require('./entry.cjs');

module.exports = async function globalTeardown(...args) {
  return (await load('global-teardown.js')).default(...args);
};

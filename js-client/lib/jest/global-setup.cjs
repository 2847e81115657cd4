// jest's globalSetup of preset: 'bridged-client': global-setup.js, loaded by Node (entry.cjs).
const { load } = require('./entry.cjs');

module.exports = async function globalSetup(...args) {
  return (await load('global-setup.js')).default(...args);
};

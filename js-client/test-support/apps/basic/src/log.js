// What the app's handlers saw, for the tests to read (app.require('./src/log')).
const entries = [];
export function log(...args) {
  entries.push(args.join(' '));
}
export function take() {
  return entries.splice(0, entries.length);
}

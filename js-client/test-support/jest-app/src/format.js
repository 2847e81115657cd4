export function shout(text) {
  return `${String(text).toUpperCase()}!`;
}

// What `react-native/jest/setup.js` (React Native's mock of every native module) is under preset: 'bridged-client'
// when an app's config names it itself, in `setupFiles` beside its preset, as many do: nothing. bridged's setup file
// has installed the native side in its place (setup.cjs), and React Native's mocks loaded over it would swap the app's
// own components for theirs (a mocked `Text` is no text to the renderer: every render would fail).

// A team's helper that re-mocks React Native's Platform for each test (callstack/react-native-paper's fonts tests):
// jest.resetModules(), then jest.doMock of the Platform module, then `Platform.OS` read through React Native's index
// imported at the top, whose getter requires the module again at each read. bridged's index kept the first answer
// (a getter's first value is kept, for speed): the second test's 'android' read 'ios'. A reset now puts the getters
// back, as React Native's mocks have them.
import { Platform } from 'react-native';

const mockPlatform = (OS) => {
  jest.resetModules();
  jest.doMock('react-native/Libraries/Utilities/Platform', () => ({ OS, select: (choices) => choices[OS] }));
};

test('iOS', () => {
  mockPlatform('ios');
  expect(Platform.OS).toBe('ios');
});

test('Android after a reset', () => {
  mockPlatform('android');
  expect(Platform.OS).toBe('android');
  expect(Platform.select({ ios: 'i', android: 'a' })).toBe('a');
});

test('web after another reset', () => {
  mockPlatform('web');
  expect(Platform.select({ ios: 'i', web: 'w' })).toBe('w');
});

// A partial mock of react-native itself, as teams of localized apps write it: the actual module, with a native
// module's constants set by the test (NativeModules.SettingsManager, whose settings i18n libraries read for the
// device's locale) and Alert.alert a jest.fn.
import React from 'react';
import { Alert, NativeModules, Pressable, Text } from 'react-native';
import { render, screen, fireEvent } from '@testing-library/react-native';

jest.mock('react-native', () => {
  const ReactNative = jest.requireActual('react-native');
  ReactNative.NativeModules.SettingsManager = { settings: { AppleLocale: 'fr_FR', AppleLanguages: ['fr'] } };
  ReactNative.Alert.alert = jest.fn();
  return ReactNative;
});

function Greeting() {
  const locale = NativeModules.SettingsManager.settings.AppleLocale;
  return (
    <Pressable onPress={() => Alert.alert(locale)}>
      <Text>{locale.startsWith('fr') ? 'Bonjour' : 'Hello'}</Text>
    </Pressable>
  );
}

test("a native module the test set on NativeModules is the one the app reads, a served one's name too", () => {
  render(<Greeting />);
  fireEvent.press(screen.getByText('Bonjour'));
  expect(Alert.alert).toHaveBeenCalledWith('fr_FR');
});

// A localized app's tests set the locale per test: each assignment replaces the one before, as on the mocks (the first
// made the served module's name read-only, and strict code threw "Cannot assign to read only property").
describe.each(['en_US', 'de_DE', 'ja_JP'])('NativeModules.SettingsManager set to %s', (locale) => {
  beforeEach(() => {
    NativeModules.SettingsManager = { settings: { AppleLocale: locale } };
  });
  test('is what the app reads', () => {
    expect(NativeModules.SettingsManager.settings.AppleLocale).toBe(locale);
  });
});

// What React Native's jest setup makes jest.fn (Linking, AccessibilityInfo, Clipboard, Vibration, AppState's
// addEventListener), as teams' tests count and stub them: with no jest.spyOn, expect(Linking.openURL) is a mock.
import React from 'react';
import { AccessibilityInfo, AppState, Clipboard, Linking, Pressable, Text, Vibration } from 'react-native';
import { render, fireEvent, screen } from '@testing-library/react-native';

function Links() {
  return (
    <>
      <Pressable onPress={() => Linking.openURL('https://example.com/help')}>
        <Text>Help</Text>
      </Pressable>
      <Pressable onPress={() => Clipboard.setString('copied')}>
        <Text>Copy</Text>
      </Pressable>
      <Pressable onPress={() => Vibration.vibrate(50)}>
        <Text>Buzz</Text>
      </Pressable>
    </>
  );
}

test('a press that opens a URL, copies and vibrates: each call counted', () => {
  render(<Links />);
  fireEvent.press(screen.getByText('Help'));
  expect(Linking.openURL).toHaveBeenCalledTimes(1);
  expect(Linking.openURL).toHaveBeenCalledWith('https://example.com/help');
  fireEvent.press(screen.getByText('Copy'));
  expect(Clipboard.setString).toHaveBeenCalledWith('copied');
  fireEvent.press(screen.getByText('Buzz'));
  expect(Vibration.vibrate).toHaveBeenCalledWith(50);
});

test('a result stubbed for one call, and a spy of one of them', async () => {
  AccessibilityInfo.isScreenReaderEnabled.mockResolvedValueOnce(true);
  await expect(AccessibilityInfo.isScreenReaderEnabled()).resolves.toBe(true);
  await expect(AccessibilityInfo.isScreenReaderEnabled()).resolves.toBe(false);
  Linking.canOpenURL.mockResolvedValueOnce(false);
  await expect(Linking.canOpenURL('tel:123')).resolves.toBe(false);
  const spy = jest.spyOn(Linking, 'openURL');
  expect(spy).toBe(Linking.openURL);
  const subscription = AppState.addEventListener('change', () => {});
  expect(AppState.addEventListener).toHaveBeenCalledWith('change', expect.any(Function));
  subscription.remove();
});

test("AppState's subscription has its remove in a jest.fn, as React Native's setup gives it: a screen that unsubscribes on unmount is counted", () => {
  function Watcher() {
    React.useEffect(() => {
      const subscription = AppState.addEventListener('change', () => {});
      return () => subscription.remove();
    }, []);
    return <Text>watching</Text>;
  }
  const { unmount } = render(<Watcher />);
  const subscription = AppState.addEventListener.mock.results.at(-1).value;
  expect(subscription.remove).not.toHaveBeenCalled();
  unmount();
  expect(subscription.remove).toHaveBeenCalledTimes(1);
});

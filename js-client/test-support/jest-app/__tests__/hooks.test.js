// render's result (rerender, unmount, toJSON, debug, wrapper), renderHook, and a third-party module mocked.
import React, { createContext, useContext, useState } from 'react';
import { Text } from 'react-native';
import { render, renderHook, act, screen, waitFor } from '@testing-library/react-native';
import invariant from 'invariant';

jest.mock('invariant', () => jest.fn());

const Theme = createContext('light');
function Label({ text }) {
  return <Text>{`${useContext(Theme)}: ${text}`}</Text>;
}

test('wrapper, rerender, toJSON, unmount', () => {
  const wrapper = ({ children }) => <Theme.Provider value="dark">{children}</Theme.Provider>;
  const view = render(<Label text="one" />, { wrapper });
  expect(view.getByText('dark: one')).toBeTruthy();
  view.rerender(<Label text="two" />);
  expect(screen.getByText('dark: two')).toBeTruthy();
  const json = view.toJSON();
  expect(json.type).toBe('Text');
  expect(json.children).toEqual(['dark: two']);
  view.unmount();
  expect(screen.queryByText('dark: two')).toBeNull();
});

test('renderHook', () => {
  const { result, rerender } = renderHook((initial) => useState(initial), { initialProps: 3 });
  expect(result.current[0]).toBe(3);
  act(() => result.current[1](5));
  expect(result.current[0]).toBe(5);
  rerender(9);
  expect(result.current[0]).toBe(5);
});

test("renderHook's result is RNTL's, set by an effect: an update outside act shows once the effects ran", async () => {
  const { result } = renderHook(() => useState(0));
  result.current[1](1);
  expect(result.current[0]).toBe(0);
  await waitFor(() => expect(result.current[0]).toBe(1));
  act(() => result.current[1](2));
  expect(result.current[0]).toBe(2);
});

test('a third-party module mocked with jest.mock', () => {
  invariant(false, 'would throw');
  expect(invariant).toHaveBeenCalledWith(false, 'would throw');
});

// The example app's tests as a team writes them: jest and React Native Testing Library's documented API, nothing
// of bridged's. They run under `preset: 'bridged-client'` (jest.config.js), and unchanged under
// `preset: 'react-native'` where @testing-library/react-native is installed (jest.config.mocks.js).
import React from 'react';
import { Text } from 'react-native';
import { render, screen, fireEvent, userEvent, waitFor, within, act } from '@testing-library/react-native';
import App from '../src/App';
import Counter from '../src/components/Counter';

describe('App', () => {
  test('counts presses', () => {
    render(<Counter label="Likes" />);
    expect(screen.getByText('never pressed')).toBeOnTheScreen();
    fireEvent.press(screen.getByLabelText('Add to Likes'));
    fireEvent.press(screen.getByText('+1'));
    expect(screen.getByText('pressed 2 times')).toBeOnTheScreen();
    expect(screen.queryByText('never pressed')).toBeNull();
  });

  test('adds a todo typed into the field', async () => {
    const user = userEvent.setup();
    render(<App />);
    const field = screen.getByPlaceholderText('What next?');
    await user.type(field, 'Ship it', { submitEditing: true });
    expect(screen.getByText('3. Ship it')).toBeOnTheScreen();
    expect(screen.getByTestId('draft')).toHaveDisplayValue('');
  });

  test('changeText edits the field, and the controlled value follows', () => {
    render(<App />);
    fireEvent.changeText(screen.getByTestId('draft'), 'Buy milk');
    expect(screen.getByDisplayValue('Buy milk')).toBeOnTheScreen();
    fireEvent(screen.getByTestId('draft'), 'submitEditing');
    expect(screen.getByText('3. Buy milk')).toBeOnTheScreen();
  });

  test('a long press removes a todo', async () => {
    render(<App />);
    // fireEvent: on React Native's mocks, RNTL 12.4's userEvent.longPress throws once the row it holds is removed
    // ("Unable to find node on an unmounted component"); a phone, and bridged, end the touch all the same.
    fireEvent(screen.getByText('1. Write the spec'), 'longPress');
    await waitFor(() => expect(screen.queryByText(/Write the spec/)).toBeNull());
  });

  test('dark mode switches', () => {
    render(<App />);
    const toggle = screen.getByTestId('dark-mode');
    fireEvent(toggle, 'valueChange', true);
    expect(screen.getByTestId('dark-mode')).toHaveProp('value', true);
    expect(screen.getByTestId('app')).toHaveStyle({ backgroundColor: '#111' });
  });

  test('within a row, and roles', () => {
    render(<App />);
    const row = screen.getByTestId('counter-Likes');
    expect(within(row).getByText('never pressed')).toBeOnTheScreen();
    expect(screen.getByRole('button', { name: 'Add to Likes' })).toBeEnabled();
  });

  test('fake timers: a timer’s update is seen once the clock moves', () => {
    jest.useFakeTimers();
    function Later() {
      const [done, setDone] = React.useState(false);
      React.useEffect(() => {
        const t = setTimeout(() => setDone(true), 1000);
        return () => clearTimeout(t);
      }, []);
      return <Text>{done ? 'done' : 'waiting'}</Text>;
    }
    render(<Later />);
    expect(screen.getByText('waiting')).toBeOnTheScreen();
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.getByText('done')).toBeOnTheScreen();
    jest.useRealTimers();
  });
});

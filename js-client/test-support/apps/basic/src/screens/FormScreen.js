import React, {useEffect, useRef, useState} from 'react';
import {Keyboard, SafeAreaView, Text, TextInput} from 'react-native';
import {log} from '../log';

// A sign-up form: the email has the focus when the screen opens (autoFocus), return on it moves to the password (blurOnSubmit false, a ref's focus()), and the email
// is checked when it loses the focus; the keyboard's coming and going is logged.
export default function FormScreen() {
  const password = useRef(null);
  useEffect(() => {
    const subscriptions = [
      Keyboard.addListener('keyboardDidShow', event => log('keyboard shown', event.endCoordinates.height, event.endCoordinates.screenY)),
      Keyboard.addListener('keyboardDidHide', () => log('keyboard hidden')),
    ];
    return () => subscriptions.forEach(subscription => subscription.remove());
  }, []);
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [withPassword, setWithPassword] = useState(true);
  return (
    <SafeAreaView>
      <TextInput
        placeholder="Email"
        autoFocus
        value={email}
        onChangeText={setEmail}
        returnKeyType="next"
        blurOnSubmit={false}
        onSubmitEditing={() => {
          log('submit email');
          password.current.focus();
        }}
        onFocus={() => log('focus email')}
        onBlur={() => {
          log('blur email');
          setError(email.includes('@') ? '' : 'invalid email');
        }}
      />
      {withPassword && (
        <TextInput ref={password} placeholder="Password" secureTextEntry onFocus={() => log('focus password')} onBlur={() => log('blur password')} />
      )}
      <Text onPress={() => setWithPassword(false)}>No password</Text>
      <Text>{error || 'no error'}</Text>
      <Text onPress={() => Keyboard.dismiss()}>Done</Text>
    </SafeAreaView>
  );
}

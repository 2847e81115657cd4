import React, { useState } from 'react';
import { ActivityIndicator, Pressable, Switch, Text, TextInput, View } from 'react-native';
import { fetchGreeting } from './api';
import { shout } from '@app/format';

export default function Login({ onDone = () => {} }) {
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [greeting, setGreeting] = useState(null);
  const [error, setError] = useState(null);
  const submit = async () => {
    setBusy(true);
    try {
      setGreeting(shout(await fetchGreeting(name)));
      onDone(name);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const disabled = name.length === 0;
  return (
    <View testID="login">
      <Text accessibilityRole="header">Welcome</Text>
      <TextInput testID="name" placeholder="Your name" value={name} onChangeText={setName} accessibilityLabel="Name" accessibilityHint="Type your name" />
      <TextInput testID="pin" placeholder="PIN" value={pin} onChangeText={setPin} maxLength={4} />
      <TextInput testID="locked" placeholder="Locked" editable={false} defaultValue="fixed" />
      <View style={{ flexDirection: 'row' }}>
        <Text>Remember me</Text>
        <Switch testID="remember" value={remember} onValueChange={setRemember} accessibilityRole="switch" />
      </View>
      <Pressable
        testID="submit"
        accessibilityRole="button"
        accessibilityState={{ disabled, busy }}
        disabled={disabled}
        onPress={submit}
        style={({ pressed }) => ({ opacity: pressed ? 0.5 : 1, backgroundColor: 'blue' })}>
        <Text>Sign in</Text>
      </Pressable>
      {busy ? <ActivityIndicator testID="spinner" /> : null}
      {greeting ? <Text testID="greeting">{greeting}</Text> : null}
      {error ? <Text accessibilityRole="alert">{error}</Text> : null}
    </View>
  );
}

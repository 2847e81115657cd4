import React, {useState} from 'react';
import {View, Text, TextInput, TouchableOpacity, StyleSheet} from 'react-native';
import {log} from '../log';

export default function LoginScreen({onLogin}) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState('Please log in');
  const [code, setCode] = useState('');
  return (
    <View style={styles.container} testID="login">
      <Text style={styles.title}>{message}</Text>
      <TextInput
        placeholder="Enter text"
        value={name}
        onChangeText={text => {
          log('name', text);
          setName(text);
        }}
        onSubmitEditing={e => log('submit', e.nativeEvent.text)}
        onFocus={() => log('focus name')}
        onBlur={() => log('blur name')}
        autoCapitalize="none"
      />
      <TextInput
        placeholder="Password"
        secureTextEntry
        maxLength={4}
        onChangeText={text => {
          log('password', text);
          setPassword(text);
        }}
      />
      <TextInput
        placeholder="Code"
        keyboardType="number-pad"
        value={code}
        onChangeText={text => {
          log('code', text);
          setCode(text.replace(/[^0-9]/g, ''));
        }}
      />
      <TextInput placeholder="Locked" editable={false} onChangeText={text => log('locked', text)} />
      <TouchableOpacity
        testID="login-button"
        accessibilityRole="button"
        onPress={() => {
          log('login', name, password);
          setMessage(`Welcome ${name}`);
          onLogin?.(name);
        }}>
        <Text>Login</Text>
      </TouchableOpacity>
    </View>
  );
}

const styles = StyleSheet.create({
  container: {flex: 1, padding: 16, backgroundColor: '#fff'},
  title: {fontSize: 20, fontWeight: 'bold', color: 'darkblue'},
});

import React, {useState} from 'react';
import {Pressable, Switch, Text, TextInput, TouchableOpacity, View} from 'react-native';
import {log} from '../log';

// What React Native Testing Library 12's queries leave out (hidden from accessibility) and what its ByRole options
// read (accessibility elements, state, value), as an app's screen sets them.
export default function AccessibilityScreen() {
  const [dialog, setDialog] = useState(false);
  const [agreed, setAgreed] = useState(false);
  return (
    <View>
      <Text role="heading">Account</Text>
      <View accessibilityRole="summary">
        <Text>Not an accessibility element</Text>
      </View>
      <View accessibilityElementsHidden>
        <Text>secret a</Text>
      </View>
      <View importantForAccessibility="no-hide-descendants">
        <Text>secret b</Text>
      </View>
      <View style={{display: 'none'}}>
        <Text>secret c</Text>
      </View>
      <View aria-hidden>
        <Text>secret d</Text>
      </View>
      <View testID="profile">
        <Text>Name</Text>
        <TextInput placeholder="Name" accessibilityHint="Your full name" />
      </View>
      <View testID="billing">
        <Text>Name</Text>
        <TextInput placeholder="Name on the card" />
      </View>
      <TouchableOpacity accessibilityRole="button" accessibilityState={{disabled: true}} disabled onPress={() => log('delete')}>
        <Text>Delete</Text>
      </TouchableOpacity>
      <Pressable role="button" accessibilityHint="Saves the draft" onPress={() => setDialog(true)}>
        <Text>Save</Text>
      </Pressable>
      <Pressable
        role="checkbox"
        aria-checked={agreed}
        accessibilityLabel="I agree"
        onPress={() => setAgreed(!agreed)}>
        <Text>{agreed ? '☑' : '☐'}</Text>
      </Pressable>
      <Switch testID="alerts" value={true} onValueChange={() => {}} />
      <View accessible accessibilityRole="adjustable" accessibilityLabel="Volume" accessibilityValue={{min: 0, max: 10, now: 3}} />
      {dialog ? (
        <View accessibilityViewIsModal>
          <Text>Saved</Text>
          <Pressable role="button" onPress={() => setDialog(false)}>
            <Text>Close</Text>
          </Pressable>
        </View>
      ) : null}
    </View>
  );
}

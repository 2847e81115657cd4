import React from 'react';
import {ActionSheetIOS, Alert, Button, SafeAreaView} from 'react-native';
import {log} from '../log';

// iOS's dialogs: an alert with no buttons of its own, a prompt, an action sheet.
export default function DialogsScreen() {
  return (
    <SafeAreaView>
      <Button title="Saved" onPress={() => Alert.alert('Saved')} />
      <Button title="Rename" onPress={() => Alert.prompt('Rename', 'A new name', name => log('renamed', name), 'plain-text', 'draft')} />
      <Button
        title="Photo"
        onPress={() =>
          ActionSheetIOS.showActionSheetWithOptions({options: ['Cancel', 'Remove photo'], cancelButtonIndex: 0, destructiveButtonIndex: 1, title: 'Photo'}, index => log('sheet', index))
        }
      />
    </SafeAreaView>
  );
}

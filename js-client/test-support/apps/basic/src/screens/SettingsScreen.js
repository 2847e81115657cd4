import React, {useState} from 'react';
import {DynamicColorIOS, Linking, Modal, PlatformColor, ScrollView, Switch, Text, TouchableOpacity, View} from 'react-native';
import {log} from '../log';

export default function SettingsScreen() {
  const [enabled, setEnabled] = useState(false);
  const [modal, setModal] = useState(false);
  return (
    <ScrollView
      testID="settings-scroll"
      scrollEventThrottle={16}
      onScroll={e => log('scroll', e.nativeEvent.contentOffset.y)}>
      <View testID="settings" style={{backgroundColor: PlatformColor('systemGroupedBackground')}}>
        <Text testID="title" style={{color: DynamicColorIOS({light: '#123456', dark: 'white'})}}>
          Notifications {enabled ? 'on' : 'off'}
        </Text>
        <Switch
          testID="notifications"
          value={enabled}
          onValueChange={value => {
            log('switch', value);
            setEnabled(value);
          }}
        />
        <Switch testID="locked" value={true} disabled onValueChange={() => log('locked changed')} />
        <TouchableOpacity onPress={() => setModal(true)}>
          <Text>Open modal</Text>
        </TouchableOpacity>
        <TouchableOpacity onPress={() => Linking.openURL('https://example.com/help')}>
          <Text>Help</Text>
        </TouchableOpacity>
        <Modal
          visible={modal}
          animationType="slide"
          onShow={() => log('modal shown')}
          onDismiss={() => log('modal dismissed')}
          onRequestClose={() => {
            log('modal close requested');
            setModal(false);
          }}>
          <View testID="modal-content">
            <Text>In the modal</Text>
          </View>
        </Modal>
      </View>
    </ScrollView>
  );
}

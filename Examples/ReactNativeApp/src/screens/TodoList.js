import React, {useState} from 'react';
import {FlatList, Text, TextInput, TouchableOpacity, View} from 'react-native';

export default function TodoList() {
  const [items, setItems] = useState(['Write the spec', 'Render it headless']);
  const [draft, setDraft] = useState('');
  const add = () => {
    if (draft.trim() === '') return;
    setItems(list => [...list, draft.trim()]);
    setDraft('');
  };
  return (
    <View testID="todos">
      <TextInput
        testID="draft"
        placeholder="What next?"
        value={draft}
        onChangeText={setDraft}
        onSubmitEditing={add}
        returnKeyType="done"
      />
      <FlatList
        data={items}
        keyExtractor={item => item}
        renderItem={({item, index}) => (
          <TouchableOpacity
            testID={`todo-${index}`}
            onLongPress={() => setItems(list => list.filter(i => i !== item))}>
            <Text>
              {index + 1}. {item}
            </Text>
          </TouchableOpacity>
        )}
      />
    </View>
  );
}

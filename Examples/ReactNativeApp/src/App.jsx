// A screen written as a React Native developer writes one: function components, hooks, state, JSX. Here the
// host components come from the attachment (in an app they come from 'react-native'); `SwiftUIButton` and
// `TextField` are native components bridged serves.
export function createApp({ React, View, Text, SwiftUIButton, TextField }) {
  const { useState } = React;

  function Counter({ label }) {
    const [count, setCount] = useState(0);
    return (
      <View testID={`counter-${label}`} style={{ flexDirection: 'row', padding: 8 }}>
        <Text style={{ fontWeight: 'bold' }}>{label}: </Text>
        <Text>{count === 0 ? 'never pressed' : `pressed ${count} times`}</Text>
        <SwiftUIButton title={label} count={count} onCountChange={(e) => setCount(e.nativeEvent.count)} />
      </View>
    );
  }

  function TodoList() {
    const [items, setItems] = useState(['Write the spec', 'Render it headless']);
    const [draft, setDraft] = useState('');
    return (
      <View testID="todos">
        <TextField
          testID="draft"
          text={draft}
          placeholder="What next?"
          onChange={(e) => setDraft(e.nativeEvent.text)}
          onCommit={(e) => {
            // React Native pools its events: read what the updater needs now, not when it runs.
            const { text } = e.nativeEvent;
            setItems((list) => [...list, text]);
            setDraft('');
          }}
        />
        {items.map((item, index) => (
          <Text key={item} testID={`todo-${index}`}>
            {index + 1}. {item}
          </Text>
        ))}
      </View>
    );
  }

  return function App() {
    return (
      <View testID="app" style={{ flex: 1, backgroundColor: '#f5f5f5' }}>
        <Counter label="Likes" />
        <Counter label="Shares" />
        <TodoList />
      </View>
    );
  };
}

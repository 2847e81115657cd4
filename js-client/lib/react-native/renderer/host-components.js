// The host components of an attachment of the renderer alone: React Native's View and Text as their native side
// takes them (an app's own package brings its own).

/** React Native's host components over an attachment: View, Text (RCTText or RCTVirtualText by context). */
export function hostComponents(React) {
  const { createElement, createContext, forwardRef, useContext } = React;
  const TextAncestor = createContext(false);
  const View = forwardRef(function View(props, ref) {
    const element = createElement('RCTView', { ...props, ref });
    return useContext(TextAncestor) ? createElement(TextAncestor.Provider, { value: false }, element) : element;
  });
  View.displayName = 'View';
  const Text = forwardRef(function Text(props, ref) {
    if (useContext(TextAncestor)) return createElement('RCTVirtualText', { ...props, ref });
    return createElement(TextAncestor.Provider, { value: true }, createElement('RCTText', { ...props, ref }));
  });
  Text.displayName = 'Text';
  return { View, Text, TextAncestor };
}


// What a screen does around its components: follows the app's state (AppState), listens for the hardware back
// button (BackHandler: on iOS, which bridged is, React Native's own never calls it), animates with an easing (Animated on the JS driver), reads right-to-left layout (I18nManager),
// finds its native view (findNodeHandle), follows the color scheme (useColorScheme: Appearance) and silences warnings (LogBox). Each needs its native module served.
import React, { useEffect, useRef, useState } from 'react';
import { Animated, AppState, BackHandler, Easing, I18nManager, LogBox, Text, findNodeHandle, useColorScheme } from 'react-native';
import { log } from '../log';

export default function LifecycleScreen() {
  const [state, setState] = useState(AppState.currentState);
  const fade = useRef(new Animated.Value(0)).current;
  const ref = useRef(null);
  const scheme = useColorScheme();
  useEffect(() => {
    LogBox.ignoreLogs(['a warning this screen does not care about']);
    const change = AppState.addEventListener('change', (next) => {
      log('app state', next);
      setState(next);
    });
    const back = BackHandler.addEventListener('hardwareBackPress', () => true);
    Animated.timing(fade, { toValue: 1, duration: 30, easing: Easing.inOut(Easing.ease), useNativeDriver: false }).start(
      ({ finished }) => log('faded in', finished),
    );
    log('rtl', I18nManager.isRTL, 'node handle', typeof findNodeHandle(ref.current));
    return () => {
      change.remove();
      back.remove();
    };
  }, [fade]);
  return (
    <Animated.View ref={ref} testID="lifecycle" style={{ opacity: fade }}>
      <Text>State {state}</Text>
      <Text>Scheme {scheme}</Text>
    </Animated.View>
  );
}

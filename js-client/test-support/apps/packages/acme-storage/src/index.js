import {NativeEventEmitter} from 'react-native';
import NativeAcmeStorage from './NativeAcmeStorage';

export const emitter = new NativeEventEmitter(NativeAcmeStorage);
export default NativeAcmeStorage;

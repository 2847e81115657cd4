import type {TurboModule} from 'react-native';
import {TurboModuleRegistry} from 'react-native';

export interface Spec extends TurboModule {
  multiGet(keys: Array<string>): Promise<Array<Array<string>>>;
  setItem(key: string, value: string): void;
  isReady(): boolean;
  getCount(): number;
  addListener(eventName: string): void;
  removeListeners(count: number): void;
}

export default TurboModuleRegistry.getEnforcing<Spec>('AcmeStorage');

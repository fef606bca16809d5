import { createContext } from 'react';
import {
  createDispatchHook,
  createSelectorHook,
  createStoreHook,
  type ReactReduxContextValue,
} from 'react-redux';

/**
 * The kit's Redux store lives in its own react-redux context: a portal that uses Redux keeps its own
 * `<Provider>` and its own `useSelector` untouched, and several console mounts on one page do not mix.
 */
// Typed loosely on purpose: naming ConsoleState here would make the store's type depend on itself
// (store → api slice → these hooks). Components read typed state through the api hooks and useSession.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ConsoleStoreContext = createContext<ReactReduxContextValue<any> | null>(null);

export const useConsoleDispatch = createDispatchHook(ConsoleStoreContext);
export const useConsoleSelector = createSelectorHook(ConsoleStoreContext);
export const useConsoleStore = createStoreHook(ConsoleStoreContext);

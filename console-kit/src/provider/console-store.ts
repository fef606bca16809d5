import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { gatehouseApi } from '../api/gatehouse-api';
import type { SessionUser } from '../api/api-types';
import type { ConsoleRuntime } from './console-runtime';
import { StorageKeys } from './console-storage';
import { sessionSlice } from './session-slice';

const rootReducer = combineSlices(gatehouseApi, sessionSlice);

export type ConsoleState = ReturnType<typeof rootReducer>;

export function createConsoleStore(runtime: ConsoleRuntime) {
  const storedUser = runtime.storage.getJson<SessionUser>(StorageKeys.user);
  return configureStore({
    reducer: rootReducer,
    preloadedState: { session: { user: storedUser } },
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: runtime } }).concat(gatehouseApi.middleware),
  });
}

export type ConsoleStore = ReturnType<typeof createConsoleStore>;
export type ConsoleDispatch = ConsoleStore['dispatch'];

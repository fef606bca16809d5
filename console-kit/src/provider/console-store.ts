import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { gatehouseApi } from '../api/gatehouse-api';
import type { SessionUser } from '../api/api-types';
import type { ConsoleRuntime } from './console-runtime';
import { StorageKeys } from './console-storage';
import { sessionSlice } from './session-slice';

const rootReducer = combineSlices(gatehouseApi, sessionSlice);

export type ConsoleState = ReturnType<typeof rootReducer>;

export function createConsoleStore(runtime: ConsoleRuntime) {
  let storedUser = runtime.storage.getJson<SessionUser>(StorageKeys.user);
  const { auth } = runtime;
  if (auth && storedUser?.id !== auth.userId) {
    // Mounted with an access token: that user is signed in. The rest of the record comes from
    // /api/user/self as soon as the provider mounts (SessionFromAccessToken).
    storedUser = { id: auth.userId, username: '', display_name: '', role: 0, status: 1, group: '' };
  }
  return configureStore({
    reducer: rootReducer,
    preloadedState: { session: { user: storedUser } },
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: { extraArgument: runtime } }).concat(gatehouseApi.middleware),
  });
}

export type ConsoleStore = ReturnType<typeof createConsoleStore>;
export type ConsoleDispatch = ConsoleStore['dispatch'];

import { useCallback } from 'react';
import { gatehouseApi } from '../api/gatehouse-api';
import type { SessionUser } from '../api/api-types';
import { useConsoleStorage } from './console-context';
import { StorageKeys } from './console-storage';
import { selectSessionUser, sessionCleared, sessionStarted } from './session-slice';
import { useConsoleDispatch, useConsoleSelector } from './store-context';
import type { ConsoleState } from './console-store';

/** The signed-in user as stored locally (spec: the returned user is kept under `user`). */
export function useSession() {
  const user = useConsoleSelector((state: ConsoleState) => selectSessionUser(state));
  const dispatch = useConsoleDispatch();
  const storage = useConsoleStorage();

  const signIn = useCallback(
    (signedIn: SessionUser) => {
      storage.setJson(StorageKeys.user, signedIn);
      dispatch(sessionStarted(signedIn));
    },
    [dispatch, storage],
  );

  const clear = useCallback(() => {
    storage.removeItem(StorageKeys.user);
    dispatch(sessionCleared());
    // Nothing the previous user loaded may linger in the cache.
    dispatch(gatehouseApi.util.resetApiState());
  }, [dispatch, storage]);

  return { user, signIn, clear };
}

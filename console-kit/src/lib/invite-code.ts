import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useConsoleStorage } from '../provider/console-context';
import { StorageKeys } from '../provider/console-storage';

/** Keeps `?aff=` for the registration that may follow (spec: /login and /register accept aff). */
export function useRememberInviteCode(): void {
  const [searchParams] = useSearchParams();
  const storage = useConsoleStorage();
  const aff = searchParams.get('aff');
  useEffect(() => {
    if (aff && /^[A-Za-z0-9]{1,32}$/.test(aff)) {
      storage.setItem(StorageKeys.aff, aff);
    }
  }, [aff, storage]);
}

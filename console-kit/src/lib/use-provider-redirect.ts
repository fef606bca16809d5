import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiAction } from '../api/use-api-action';
import { useConsoleStorage, useNotify } from '../provider/console-context';
import { StorageKeys } from '../provider/console-storage';
import { useStartOAuthMutation } from './oauth-api';
import { authorizeUrlOf, type RedirectProvider } from './oauth-redirect';

/** Leaves the page for a provider's address; replaceable in tests. */
export function leavePage(url: string): void {
  window.location.assign(url);
}

/**
 * Starts a provider redirect (sign-in, or binding when a user is signed in): asks the server for a
 * single-use state of this provider, carrying the stored invitation code, and follows the
 * authorization address the server built (docs/oauth.md). The provider returns to the console's
 * `/oauth/{provider}` page.
 */
export function useProviderRedirect(go: (url: string) => void = leavePage) {
  const storage = useConsoleStorage();
  const notify = useNotify();
  const { t } = useTranslation('common');
  const [startOAuth] = useStartOAuthMutation();
  const { run, busy } = useApiAction(t);

  const start = useCallback(
    (provider: RedirectProvider) =>
      run(async () => {
        const aff = storage.getItem(StorageKeys.aff) ?? undefined;
        const url = authorizeUrlOf(await startOAuth(aff ? { provider, aff } : { provider }).unwrap());
        if (!url) {
          notify(t('errors.requestFailed'), 'error');
          return;
        }
        go(url);
      }),
    [storage, startOAuth, go, notify, t, run],
  );

  return { start, isLoading: busy };
}

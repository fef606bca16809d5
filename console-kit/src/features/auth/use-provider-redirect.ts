import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useHref } from 'react-router';
import { describeApiError } from '../../api/describe-api-error';
import { useConsoleStorage, useNotify } from '../../provider/console-context';
import { StorageKeys } from '../../provider/console-storage';
import { useSystemStatus } from '../../provider/use-system-status';
import { useGetOAuthStateMutation } from './auth-api';
import { buildAuthorizeUrl, type RedirectProvider } from './oauth-redirect';

/** Leaves the page for a provider's address; replaceable in tests. */
export function leavePage(url: string): void {
  window.location.assign(url);
}

/**
 * Starts a provider redirect (sign-in, or binding when a user is signed in): fetches a one-time state,
 * carrying the stored invite code, and sends the browser to the provider, which returns to the
 * console's `/oauth/{provider}` page.
 */
export function useProviderRedirect(go: (url: string) => void = leavePage) {
  const { status } = useSystemStatus();
  const storage = useConsoleStorage();
  const notify = useNotify();
  const { t } = useTranslation('common');
  const [getState, { isLoading }] = useGetOAuthStateMutation();
  const callbacks: Record<RedirectProvider, string> = {
    github: useHref('/oauth/github'),
    oidc: useHref('/oauth/oidc'),
    linuxdo: useHref('/oauth/linuxdo'),
  };
  const { github, oidc, linuxdo } = callbacks;

  const start = useCallback(
    async (provider: RedirectProvider) => {
      if (!status) {
        return;
      }
      try {
        const aff = storage.getItem(StorageKeys.aff) ?? undefined;
        const state = await getState(aff ? { aff } : undefined).unwrap();
        const paths = { github, oidc, linuxdo };
        const url =
          state &&
          buildAuthorizeUrl(
            provider,
            status,
            state,
            new URL(paths[provider], window.location.origin).toString(),
          );
        if (!url) {
          notify(t('errors.requestFailed'), 'error');
          return;
        }
        go(url);
      } catch (failure) {
        notify(describeApiError(failure, t), 'error');
      }
    },
    [status, storage, getState, github, oidc, linuxdo, go, notify, t],
  );

  return { start, isLoading };
}

import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { CacheProvider } from '@emotion/react';
import createCache from '@emotion/cache';
import { ScopedCssBaseline, type AlertColor } from '@mui/material';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { Provider as ReduxProvider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { useInRouterContext } from 'react-router';
import { gatehouseApi, LANGUAGE_DEPENDENT_TAGS } from '../api/gatehouse-api';
import { ConsoleContext, type ConsoleContextValue } from './console-context';
import { createConsoleI18n, type ConsoleLanguage } from './console-i18n';
import { createConsoleRuntime, type ConsoleAuth } from './console-runtime';
import { createConsoleStorage, StorageKeys } from './console-storage';
import { createConsoleStore } from './console-store';
import { buildConsoleTheme, parseThemeMode, type ThemeMode } from './console-theme';
import { ManualCopyDialog } from './manual-copy-dialog';
import { NotificationHost, type ConsoleNotification } from './notification-host';
import { RouterNavigateBridge } from './router-navigate-bridge';
import { SessionFromAccessToken } from './session-from-access-token';
import { ConsoleStoreContext } from './store-context';

export interface GatehouseConsoleProps {
  children?: ReactNode;
  /** Origin and path prefix of the Gatehouse server; '' when the console is served by it. */
  apiBase?: string;
  /** Prefix of every localStorage key the console writes; '' keeps the spec's plain key names. */
  storagePrefix?: string;
  /** The portal's MUI theme; the console derives its light and dark themes from it. */
  theme?: Theme;
  /** Forces the interface language instead of the stored choice or the browser's. */
  language?: ConsoleLanguage;
  /**
   * Signs the console in with a system access token (a back-office integration) instead of the
   * session cookie of `POST /api/user/login`.
   */
  auth?: ConsoleAuth;
}

let mountCounter = 0;

/** Emotion keys allow lower-case letters and '-' only, so the mount number is spelled in letters. */
function nextEmotionKey(): string {
  mountCounter += 1;
  const letters = mountCounter
    .toString(26)
    .replace(/[0-9a-p]/g, (digit) => String.fromCharCode(97 + parseInt(digit, 26)));
  return `gatehouse-${letters}`;
}

/**
 * Everything a console page needs, scoped to this mount: its own Redux store (in its own react-redux
 * context), its own i18next instance, a private emotion cache, a ScopedCssBaseline and a theme.
 * Render it inside the host's router so that 401 redirects stay client-side.
 */
export function GatehouseConsole({
  children,
  apiBase = '',
  storagePrefix = '',
  theme: hostTheme,
  language,
  auth,
}: GatehouseConsoleProps) {
  const authUserId = auth?.userId;
  const authToken = auth?.accessToken;
  const runtime = useMemo(
    () =>
      createConsoleRuntime(
        apiBase,
        createConsoleStorage(storagePrefix),
        authUserId !== undefined && authToken ? { userId: authUserId, accessToken: authToken } : undefined,
      ),
    [apiBase, storagePrefix, authUserId, authToken],
  );
  const store = useMemo(() => createConsoleStore(runtime), [runtime]);
  const i18n = useMemo(() => {
    const instance = createConsoleI18n(runtime.storage, language);
    runtime.setLanguage(instance.language);
    return instance;
  }, [runtime, language]);
  // Every call carries the interface language; a switch refetches what the server has put into words.
  useEffect(() => {
    const onChange = (next: string) => {
      if (runtime.language() === next) {
        return;
      }
      runtime.setLanguage(next);
      store.dispatch(gatehouseApi.util.invalidateTags([...LANGUAGE_DEPENDENT_TAGS]));
    };
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [i18n, runtime, store]);
  const emotionCache = useMemo(() => createCache({ key: nextEmotionKey() }), []);

  const [themeMode, setThemeModeState] = useState<ThemeMode>(
    () =>
      parseThemeMode(runtime.storage.getItem(StorageKeys.themeMode)) ?? hostTheme?.palette.mode ?? 'light',
  );
  const setThemeMode = useCallback(
    (mode: ThemeMode) => {
      runtime.storage.setItem(StorageKeys.themeMode, mode);
      setThemeModeState(mode);
    },
    [runtime],
  );
  const theme = useMemo(() => buildConsoleTheme(themeMode, hostTheme), [themeMode, hostTheme]);

  const [notifications, setNotifications] = useState<ConsoleNotification[]>([]);
  const notify = useCallback((message: string, severity: AlertColor = 'info') => {
    setNotifications((queue) => [...queue, { id: Date.now() + Math.random(), message, severity }]);
  }, []);
  const dismiss = useCallback((id: number) => {
    setNotifications((queue) => queue.filter((notification) => notification.id !== id));
  }, []);

  const [manualCopyText, setManualCopyText] = useState<string | null>(null);

  const contextValue = useMemo<ConsoleContextValue>(
    () => ({ runtime, themeMode, setThemeMode, notify, showManualCopy: setManualCopyText }),
    [runtime, themeMode, setThemeMode, notify],
  );
  const inRouter = useInRouterContext();

  return (
    <ReduxProvider store={store} context={ConsoleStoreContext}>
      <I18nextProvider i18n={i18n}>
        <CacheProvider value={emotionCache}>
          <ThemeProvider theme={theme}>
            <ConsoleContext.Provider value={contextValue}>
              {inRouter && <RouterNavigateBridge runtime={runtime} />}
              {runtime.auth && <SessionFromAccessToken />}
              <ScopedCssBaseline enableColorScheme sx={{ minHeight: '100%' }}>
                {children}
                <NotificationHost notification={notifications[0] ?? null} onClose={dismiss} />
                <ManualCopyDialog text={manualCopyText} onClose={() => setManualCopyText(null)} />
              </ScopedCssBaseline>
            </ConsoleContext.Provider>
          </ThemeProvider>
        </CacheProvider>
      </I18nextProvider>
    </ReduxProvider>
  );
}

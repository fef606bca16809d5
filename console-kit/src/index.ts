export { GatehouseConsole, type GatehouseConsoleProps } from './provider/gatehouse-console';
export { useConsoleStorage, useNotify, useThemeMode } from './provider/console-context';
export { useSession } from './provider/use-session';
export {
  createConsoleI18n,
  normalizeLanguage,
  useFeatureTranslation,
  CONSOLE_LANGUAGES,
  FALLBACK_LANGUAGE,
  type ConsoleLanguage,
  type LocaleBundles,
  type LocaleResource,
} from './provider/console-i18n';
export { createConsoleStorage, StorageKeys, type ConsoleStorage } from './provider/console-storage';
export { buildConsoleTheme, type ThemeMode } from './provider/console-theme';
export { createConsoleStore, type ConsoleStore, type ConsoleState } from './provider/console-store';
export { createConsoleRuntime, type ConsoleRuntime } from './provider/console-runtime';
export {
  gatehouseApi,
  useGetStatusQuery,
  useGetSetupQuery,
  usePostSetupMutation,
  useLoginMutation,
  useLogoutMutation,
  useGetSelfQuery,
} from './api/gatehouse-api';
export { envelopeBaseQuery, SESSION_EXPIRED_PATH } from './api/envelope-base-query';
export { describeApiError, isApiError } from './api/describe-api-error';
export * from './api/api-types';

export { GatehouseConsole, type GatehouseConsoleProps } from './provider/gatehouse-console';
export {
  useConsoleStorage,
  useConsoleRuntime,
  useManualCopy,
  useNotify,
  useThemeMode,
} from './provider/console-context';
export { useSession } from './provider/use-session';
export { useSystemStatus } from './provider/use-system-status';
export { useCopyText, writeClipboard } from './provider/clipboard';
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
export { createConsoleRuntime, type ConsoleRuntime, type ConsoleAuth } from './provider/console-runtime';
export {
  gatehouseApi,
  useGetStatusQuery,
  useGetSetupQuery,
  usePostSetupMutation,
  useLoginMutation,
  useLogoutMutation,
  useGetSelfQuery,
} from './api/gatehouse-api';
export { envelopeBaseQuery, SESSION_EXPIRED_PATH, type EnvelopeMeta } from './api/envelope-base-query';
export { describeApiError, isApiError } from './api/describe-api-error';
export * from './api/api-types';
export {
  formatQuota,
  formatQuotaWithUnits,
  formatCurrency,
  formatShortNumber,
  quotaToCurrency,
  currencyToQuota,
  quotaDisplayFromStatus,
  DEFAULT_QUOTA_PER_UNIT,
  DEFAULT_QUOTA_DISPLAY,
  SHORTEN_FROM,
  type QuotaDisplayOptions,
} from './format/quota';
export { useQuotaFormat } from './format/use-quota-format';
export {
  sanitizeHtml,
  renderMarkdown,
  isStandaloneUrl,
  SAFE_HTML_TAGS,
  SAFE_HTML_ATTRIBUTES,
} from './format/safe-html';

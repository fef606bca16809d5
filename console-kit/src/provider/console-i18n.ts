import i18next, { type i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { StorageKeys, type ConsoleStorage } from './console-storage';
import { commonLocales } from './locales/common-locales';

export const CONSOLE_LANGUAGES = ['zh', 'en'] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: ConsoleLanguage = 'zh';

export type LocaleResource = { [key: string]: string | LocaleResource };
export type LocaleBundles = Record<ConsoleLanguage, LocaleResource>;

export const COMMON_NAMESPACE = 'common';

/** Maps whatever a browser or an old localStorage value says ('en-US', 'zh-CN', 'zh_TW') to zh or en. */
export function normalizeLanguage(value: string | null | undefined): ConsoleLanguage | null {
  const lower = value?.toLowerCase() ?? '';
  if (lower.startsWith('en')) {
    return 'en';
  }
  if (lower.startsWith('zh')) {
    return 'zh';
  }
  return null;
}

function initialLanguage(storage: ConsoleStorage, requested?: ConsoleLanguage): ConsoleLanguage {
  if (requested) {
    return requested;
  }
  const stored = normalizeLanguage(storage.getItem(StorageKeys.language));
  if (stored) {
    return stored;
  }
  const browser = typeof navigator === 'undefined' ? null : normalizeLanguage(navigator.language);
  return browser ?? FALLBACK_LANGUAGE;
}

/**
 * One i18next instance per mount, never the global singleton (and never `use(initReactI18next)`,
 * which would make it global): a portal's own translations stay untouched.
 */
export function createConsoleI18n(storage: ConsoleStorage, requested?: ConsoleLanguage): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: initialLanguage(storage, requested),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...CONSOLE_LANGUAGES],
    ns: [COMMON_NAMESPACE],
    defaultNS: COMMON_NAMESPACE,
    resources: {
      zh: { [COMMON_NAMESPACE]: commonLocales.zh },
      en: { [COMMON_NAMESPACE]: commonLocales.en },
    },
    interpolation: { escapeValue: false },
    // Resources are bundled, so initialisation can finish synchronously before the first render.
    initAsync: false,
    react: { useSuspense: false },
  });
  instance.on('languageChanged', (language) => {
    storage.setItem(StorageKeys.language, language);
  });
  return instance;
}

/**
 * `useTranslation` for a feature namespace whose strings ship with the feature. The bundle is added to
 * the mount's instance the first time the feature renders, so unused features cost nothing.
 */
export function useFeatureTranslation(namespace: string, bundles: LocaleBundles) {
  const { i18n } = useTranslation(COMMON_NAMESPACE);
  for (const language of CONSOLE_LANGUAGES) {
    if (!i18n.hasResourceBundle(language, namespace)) {
      i18n.addResourceBundle(language, namespace, bundles[language], true, false);
    }
  }
  return useTranslation([namespace, COMMON_NAMESPACE]);
}

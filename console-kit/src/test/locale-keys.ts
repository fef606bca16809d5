import type { LocaleBundles, LocaleResource } from '../provider/console-i18n';

/** Every string key of a bundle, dotted. */
export function keysOf(resource: LocaleResource, prefix = ''): string[] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

/** Keys present in one language only, and keys whose text is blank. */
export function localeProblems(bundles: LocaleBundles): { missing: string[]; blank: string[] } {
  const zh = new Set(keysOf(bundles.zh));
  const en = new Set(keysOf(bundles.en));
  const missing = [...[...zh].filter((key) => !en.has(key)), ...[...en].filter((key) => !zh.has(key))];
  const blank: string[] = [];
  for (const language of ['zh', 'en'] as const) {
    for (const key of keysOf(bundles[language])) {
      const value = key
        .split('.')
        .reduce<LocaleResource | string>((node, part) => (node as LocaleResource)[part], bundles[language]);
      if (typeof value !== 'string' || value.trim() === '') {
        blank.push(`${language}:${key}`);
      }
    }
  }
  return { missing, blank };
}

import { describe, expect, it } from 'vitest';
import type { LocaleResource } from '../../provider/console-i18n';
import { tokensLocales } from './tokens-locales';

function keysOf(resource: LocaleResource, prefix = ''): string[] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe('translations', () => {
  it.each([['tokens', tokensLocales]])(
    '%s has every string in both Chinese and English',
    (_name, bundles) => {
      const zh = keysOf(bundles.zh).sort();
      const en = keysOf(bundles.en).sort();
      expect(en.filter((key) => !zh.includes(key))).toEqual([]);
      expect(zh.filter((key) => !en.includes(key))).toEqual([]);
    },
  );
});

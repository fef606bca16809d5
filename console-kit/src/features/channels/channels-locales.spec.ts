import { describe, expect, it } from 'vitest';
import type { LocaleResource } from '../../provider/console-i18n';
import { CHANNEL_TYPES, channelTypeName } from './channel-rules';
import { channelsLocales } from './channels-locales';

function keysOf(resource: LocaleResource, prefix = ''): string[] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe('channels strings', () => {
  it('has every string in Chinese and in English, none empty, with the same placeholders', () => {
    const zh = keysOf(channelsLocales.zh);
    expect(keysOf(channelsLocales.en).sort()).toEqual([...zh].sort());
    const valueOf = (resource: LocaleResource, key: string) =>
      key
        .split('.')
        .reduce<LocaleResource | string>((node, part) => (node as LocaleResource)[part], resource) as string;
    for (const key of zh) {
      const zhText = valueOf(channelsLocales.zh, key);
      const enText = valueOf(channelsLocales.en, key);
      expect(zhText.trim(), key).not.toBe('');
      expect(enText.trim(), key).not.toBe('');
      const vars = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
      expect(vars(enText), key).toEqual(vars(zhText));
    }
  });

  it('names every channel type without Chinese in English, and in Chinese where the provider is Chinese', () => {
    const lookup =
      (bundle: { types: Record<string, string> }) => (key: string, options: { defaultValue: string }) =>
        bundle.types[key.replace('types.', '')] ?? options.defaultValue;
    const cjk = /[\u3400-\u9fff\uff00-\uffef]/;
    for (const { id } of CHANNEL_TYPES) {
      expect(channelTypeName(id, lookup(channelsLocales.en)), String(id)).not.toMatch(cjk);
    }
    expect(channelTypeName(17, lookup(channelsLocales.en))).toBe('Alibaba Tongyi Qianwen');
    expect(channelTypeName(17, lookup(channelsLocales.zh))).toBe('阿里通义千问');
    expect(channelTypeName(1, lookup(channelsLocales.zh))).toBe('OpenAI');
  });

  it('says "1 channel", not "1 channels", in English', async () => {
    const { createInstance } = await import('i18next');
    const i18n = createInstance();
    await i18n.init({
      lng: 'en',
      resources: { en: { channels: channelsLocales.en } },
      defaultNS: 'channels',
    });
    expect(i18n.t('tag.children', { count: 1 })).toBe('1 channel');
    expect(i18n.t('tag.children', { count: 3 })).toBe('3 channels');
  });
});

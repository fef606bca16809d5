import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { commonLocales } from '../provider/locales/common-locales';
import { groupDescription } from './group-description';

function translator(lng: 'zh' | 'en') {
  const i18n = createInstance();
  void i18n.init({
    lng,
    initAsync: false,
    defaultNS: 'common',
    resources: { zh: { common: commonLocales.zh }, en: { common: commonLocales.en } },
  });
  return i18n.t;
}

describe('group descriptions', () => {
  it('shows the built-in descriptions in the reader language', () => {
    expect(groupDescription('default', '默认分组', translator('en'))).toBe('Default group');
    expect(groupDescription('vip', 'vip分组', translator('en'))).toBe('VIP group');
    expect(groupDescription('default', '默认分组', translator('zh'))).toBe('默认分组');
  });

  it("keeps an operator's own description as written", () => {
    expect(groupDescription('default', 'Everyone', translator('zh'))).toBe('Everyone');
    expect(groupDescription('svip', 'vip分组', translator('en'))).toBe('vip分组');
    expect(groupDescription('default', undefined, translator('en'))).toBe('');
  });
});

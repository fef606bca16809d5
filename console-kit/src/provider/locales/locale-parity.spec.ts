import { describe, expect, it } from 'vitest';
import { budgetsLocales } from '../../components/budgets-locales';
import { contentSwitchLocales } from '../../components/content-log-switch';
import { logExportLocales } from '../../components/log-export-button';
import { aboutLocales } from '../../features/about/about-locales';
import { authLocales } from '../../components/auth-locales';
import { chatLocales } from '../../features/chat/chat-locales';
import { homeLocales } from '../../features/home/home-locales';
import { noticeLocales } from '../../features/notice/notice-locales';
import { oauthLocales } from '../../components/oauth-locales';
import { personalLocales } from '../../features/personal/personal-locales';
import { redemptionsLocales } from '../../features/redemptions/redemptions-locales';
import { registerLocales } from '../../features/register/register-locales';
import { resetLocales } from '../../features/reset/reset-locales';
import { settingsLocales } from '../../features/settings/settings-locales';
import { tokensLocales } from '../../features/tokens/tokens-locales';
import { usersLocales } from '../../features/users/users-locales';
import { walletLocales } from '../../features/wallet/wallet-locales';
import type { LocaleBundles, LocaleResource } from '../console-i18n';
import { commonLocales } from './common-locales';

function keysOf(resource: LocaleResource, prefix = ''): string[] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

const bundles: Record<string, LocaleBundles> = {
  common: commonLocales,
  about: aboutLocales,
  auth: authLocales,
  home: homeLocales,
  notice: noticeLocales,
  oauth: oauthLocales,
  personal: personalLocales,
  register: registerLocales,
  reset: resetLocales,
  settings: settingsLocales,
  users: usersLocales,
  tokens: tokensLocales,
  redemptions: redemptionsLocales,
  wallet: walletLocales,
  chat: chatLocales,
  budgets: budgetsLocales,
  contentLogSwitch: contentSwitchLocales,
  logExport: logExportLocales,
};

describe('console strings', () => {
  it.each(Object.keys(bundles))('%s has every string in Chinese and in English, none empty', (name) => {
    const { zh, en } = bundles[name];
    expect(keysOf(en).sort()).toEqual(keysOf(zh).sort());
    const empty = (resource: LocaleResource) =>
      keysOf(resource).filter((key) => {
        const value = key
          .split('.')
          .reduce<LocaleResource | string>((node, part) => (node as LocaleResource)[part], resource);
        return typeof value !== 'string' || value.trim() === '';
      });
    expect(empty(zh)).toEqual([]);
    expect(empty(en)).toEqual([]);
  });
});

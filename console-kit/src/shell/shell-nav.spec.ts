import { describe, expect, it } from 'vitest';
import type { SystemStatus } from '../api/api-types';
import { consoleFeatures } from '../console-features';
import { statusOf } from '../test/wire-fixtures';
import {
  buildSidebarGroups as buildGroups,
  buildTopNavLinks,
  chatNames,
  consoleHomePath,
  isNewYearsDay,
} from './shell-nav';

/** The sidebar of the standalone console: every feature's entries. */
const buildSidebarGroups = (status: SystemStatus | null, user: { role: number }) =>
  buildGroups(consoleFeatures, status, user);

const paths = (status: SystemStatus | null, role: number) =>
  buildSidebarGroups(status, { role }).flatMap((group) => group.items.map((item) => item.to));

describe('buildSidebarGroups', () => {
  const plain = statusOf();

  it('gives an ordinary user the playground, console and personal groups without admin entries', () => {
    expect(paths(plain, 1)).toEqual(['/playground', '/token', '/log', '/report', '/topup', '/personal']);
    expect(buildSidebarGroups(plain, { role: 1 }).map((group) => group.id)).toEqual([
      'playground',
      'console',
      'personal',
    ]);
  });

  it('adds the admin group for role 10 and up', () => {
    expect(paths(plain, 10)).toEqual([
      '/playground',
      '/token',
      '/log',
      '/report',
      '/channel',
      '/redemption',
      '/user',
      '/setting',
      '/audit',
      '/topup',
      '/personal',
    ]);
    expect(paths(plain, 100)).toContain('/setting');
  });

  it('shows dashboard, drawing and task logs only when the status enables them', () => {
    const all = { ...plain, enable_data_export: true, enable_drawing: true, enable_task: true };
    expect(paths(all, 1)).toEqual([
      '/playground',
      '/detail',
      '/token',
      '/log',
      '/report',
      '/midjourney',
      '/task',
      '/topup',
      '/personal',
    ]);
  });

  it('lists configured chat links as /chat/{index}', () => {
    const groups = buildSidebarGroups(
      {
        ...plain,
        chats: [{ ChatGPT: 'https://chat.example.com/#/?key={key}' }, { Lobe: 'https://lobe.example.com' }],
      },
      { role: 1 },
    );
    const chat = groups.find((group) => group.id === 'chat');
    expect(chat?.items.map((item) => [item.label, item.to])).toEqual([
      ['ChatGPT', '/chat/0'],
      ['Lobe', '/chat/1'],
    ]);
  });

  it('ignores chat entries that are not objects', () => {
    expect(chatNames({ chats: [null as unknown as Record<string, string>, {}] })).toEqual([
      'Chat 1',
      'Chat 2',
    ]);
    expect(chatNames({ chats: 'nope' as unknown as Record<string, string>[] })).toEqual([]);
  });
});

describe('top bar links', () => {
  it('sends Console to the dashboard with data export, else to the tokens', () => {
    expect(consoleHomePath({ enable_data_export: true })).toBe('/detail');
    expect(consoleHomePath(null)).toBe('/token');
  });

  it('shows Docs only for a configured http(s) link', () => {
    expect(buildTopNavLinks(statusOf()).map((link) => link.labelKey)).toEqual([
      'nav.home',
      'nav.console',
      'nav.pricing',
      'nav.about',
    ]);
    const withDocs = buildTopNavLinks(statusOf({ docs_link: 'https://docs.example.com' }));
    expect(withDocs.find((link) => link.labelKey === 'nav.docs')).toEqual({
      labelKey: 'nav.docs',
      to: 'https://docs.example.com',
      external: true,
    });
    expect(
      buildTopNavLinks(statusOf({ docs_link: 'javascript:alert(1)' })).map((link) => link.labelKey),
    ).not.toContain('nav.docs');
  });
});

describe('isNewYearsDay', () => {
  it('is true on 1 January only', () => {
    expect(isNewYearsDay(new Date(2026, 0, 1, 23, 59))).toBe(true);
    expect(isNewYearsDay(new Date(2026, 0, 2))).toBe(false);
    expect(isNewYearsDay(new Date(2025, 11, 31))).toBe(false);
  });
});

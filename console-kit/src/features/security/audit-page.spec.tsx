import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Routes } from 'react-router';
import { GatehouseConsole } from '../../provider/gatehouse-console';
import { featureRoutes } from '../../shell/feature-routes';
import { PageSuspense } from '../../shell/page-loading';
import { envelope, installFakeServer } from '../../test/fake-server';
import type { AuditEntry } from '../../lib/security-api';
import { securityFeature } from './feature';

vi.setConfig({ testTimeout: 20_000 });

const root = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' };
const member = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

const at = Math.floor(new Date(2026, 10, 26, 1, 15, 6).getTime() / 1000);
const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  created_at: at,
  actor_id: 1,
  actor_name: 'root',
  actor_role: 100,
  action: 'user.create',
  target_type: 'user',
  target_id: '',
  target_name: '',
  ip: '127.0.0.1',
  changes: null,
  summary: '',
  request_id: '',
  ...fields,
});

function openAudit(user: object) {
  window.localStorage.setItem('user', JSON.stringify(user));
  const server = installFakeServer({
    'GET /api/status': () => envelope({ setup: true }),
    'GET /api/user/2fa': () => envelope({ totp_enabled: false, passkeys: [], required_for_admins: false }),
    'GET /api/audit/': () =>
      envelope({
        items: [
          entry({
            id: 2,
            action: 'redemption.create',
            target_type: 'redemption',
            summary: 'welcome × 1，每个额度 500000',
          }),
          entry({
            id: 1,
            target_id: '2',
            target_name: 'alice',
            changes: {
              username: { from: null, to: 'alice' },
              role: { from: null, to: 1 },
              content_log: { from: false, to: true },
              password: { secret: true },
              shoe_size: { from: 1, to: 2 },
            },
          }),
          entry({ id: 3, action: 'robot.dance', target_type: 'robot' }),
        ],
        total: 3,
        page: 1,
        page_size: 20,
      }),
  });
  render(
    <MemoryRouter initialEntries={['/audit']}>
      <GatehouseConsole language="zh">
        <PageSuspense>
          <Routes>{featureRoutes([securityFeature])}</Routes>
        </PageSuspense>
      </GatehouseConsole>
    </MemoryRouter>,
  );
  return server;
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('audit trail page', () => {
  it('speaks the console’s language: times, actions, targets, fields, switches and the pager', async () => {
    openAudit(root);
    const rows = await screen.findAllByTestId('audit-row');
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells[0]).toEqual([
      '2026-11-26 01:15:06',
      'root',
      '创建兑换码',
      '兑换码',
      '127.0.0.1',
      'welcome × 1，每个额度 500000',
    ]);
    expect(cells[1].slice(2, 4)).toEqual(['创建用户', '用户 #2 (alice)']);
    expect(cells[1][5]?.split('\n')).toEqual([
      '用户名: ∅ → alice',
      '角色: ∅ → 1',
      '记录请求内容: 否 → 是',
      '密码 （已修改，值不显示）',
      'shoe_size: 1 → 2',
    ]);
    // An action or kind the console does not know is shown as recorded.
    expect(cells[2].slice(2, 4)).toEqual(['robot.dance', 'robot']);
    expect(screen.getByText('第 1–3 条，共 3 条')).toBeTruthy();
  });

  it('refuses an ordinary user, as the other admin pages do, without asking the server', async () => {
    const server = openAudit(member);
    expect(await screen.findByText('无权访问此页面')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(server.requests.filter((r) => r.path.startsWith('/api/audit'))).toEqual([]);
  });
});

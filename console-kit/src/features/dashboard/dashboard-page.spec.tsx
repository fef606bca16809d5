import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { envelope, installFakeServer } from '../../test/fake-server';
import { renderInConsole } from '../../test/render-in-console';
import { DashboardPage } from './dashboard-page';

vi.setConfig({ testTimeout: 20_000 });

describe('DashboardPage', () => {
  it('shows the charts’ loading text in the console’s language while the usage data is on its way', async () => {
    window.localStorage.setItem(
      'user',
      JSON.stringify({ id: 1, username: 'me', display_name: 'me', role: 1, status: 1, group: 'default' }),
    );
    installFakeServer({
      'GET /api/status': () => envelope({ setup: true, quota_per_unit: 500000, display_in_currency: true }),
      'GET /api/data/self': () => new Promise<Response>(() => undefined),
      'GET /api/budget/self': () => envelope({ user: { periods: [] }, group: { periods: [] } }),
    });
    renderInConsole(<DashboardPage />, { path: '/detail', language: 'zh' });
    expect((await screen.findAllByText('正在加载数据…')).length).toBeGreaterThan(0);
    expect(document.body.textContent).not.toMatch(/No data to display|Loading data/);
  });
});

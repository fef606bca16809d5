import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { RequireAuth } from '../shell/route-guards';
import { envelope, installFakeServer } from '../test/fake-server';
import { GatehouseConsole } from './gatehouse-console';
import { useSession } from './use-session';

vi.setConfig({ testTimeout: 20_000 });

function WhoAmI() {
  const { user } = useSession();
  const { t } = useTranslation('common');
  return <p>{`${user?.username ?? '-'} / ${t('nav.personal')}`}</p>;
}

describe('GatehouseConsole', () => {
  it('signs in with an access token and fills the session from /api/user/self', async () => {
    const server = installFakeServer({
      'GET /api/user/self': () =>
        envelope({
          id: 12,
          username: 'backoffice',
          display_name: 'BO',
          role: 10,
          status: 1,
          group: 'default',
        }),
    });
    render(
      <MemoryRouter initialEntries={['/personal']}>
        <GatehouseConsole
          language="en"
          storagePrefix="bo:"
          auth={{ userId: 12, accessToken: 'secret-token' }}
        >
          <Routes>
            <Route element={<RequireAuth />}>
              <Route path="personal" element={<WhoAmI />} />
            </Route>
            <Route path="login" element={<p>login page</p>} />
          </Routes>
        </GatehouseConsole>
      </MemoryRouter>,
    );

    expect(await screen.findByText('backoffice / Personal settings')).toBeTruthy();
    expect(server.requests[0]?.request.headers.get('Authorization')).toBe('Bearer secret-token');
    expect(JSON.parse(window.localStorage.getItem('bo:user') ?? 'null')).toMatchObject({ id: 12, role: 10 });
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('leaves the global i18next instance alone', async () => {
    installFakeServer({});
    // A portal's own setup of the global instance.
    await i18next.init({ lng: 'en', resources: { en: { portal: { hello: 'Hello' } } } });
    render(
      <MemoryRouter>
        <GatehouseConsole language="zh">
          <WhoAmI />
        </GatehouseConsole>
      </MemoryRouter>,
    );
    expect(await screen.findByText('- / 个人设置')).toBeTruthy();
    expect(i18next.language).toBe('en');
    expect(i18next.t('portal:hello')).toBe('Hello');
    expect(i18next.hasResourceBundle('zh', 'common')).toBe(false);
  });
});

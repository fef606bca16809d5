import { describe, expect, it, vi } from 'vitest';

// Rendering MUI pages in happy-dom on a shared two-core machine can take seconds.
vi.setConfig({ testTimeout: 20_000 });
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { consoleFeatures } from '../console-features';
import { GatehouseConsole } from '../provider/gatehouse-console';
import { envelope, installFakeServer } from '../test/fake-server';
import { LocationProbe } from '../test/render-in-console';
import { ConsoleLayout } from './console-layout';
import { RequireAdmin, RequireAuth } from './route-guards';
import { TopBar } from './top-bar';

const member = { id: 3, username: 'bob', display_name: 'Bob', role: 1, status: 1, group: 'default' };
const admin = { ...member, id: 1, username: 'root', role: 100 };

function renderLayout(path: string, status: Record<string, unknown> = {}) {
  installFakeServer({
    'GET /api/status': () => envelope({ setup: true, system_name: 'Acme AI', version: 'v9.9.9', ...status }),
    'GET /api/notice': () => envelope(''),
  });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <GatehouseConsole language="en">
        <Routes>
          <Route element={<ConsoleLayout features={consoleFeatures} />}>
            <Route path="login" element={<p>login page</p>} />
            <Route element={<RequireAuth />}>
              <Route path="token" element={<p>tokens page</p>} />
              <Route element={<RequireAdmin />}>
                <Route path="setting" element={<p>settings page</p>} />
              </Route>
            </Route>
          </Route>
        </Routes>
        <LocationProbe />
      </GatehouseConsole>
    </MemoryRouter>,
  );
}

describe('ConsoleLayout', () => {
  it('sends a visitor of a protected page to /login and shows no sidebar', async () => {
    renderLayout('/token');
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
    expect(screen.queryByTestId('sidebar')).toBeNull();
    expect(screen.getByRole('link', { name: 'Register' })).toBeTruthy();
  });

  it('hides Register in self-use mode on a wide screen', async () => {
    renderLayout('/login', { self_use_mode_enabled: true });
    expect(await screen.findByText('Self-use mode')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Register' })).toBeNull();
  });

  it('shows a signed-in user the sidebar without the admin group', async () => {
    window.localStorage.setItem('user', JSON.stringify(member));
    renderLayout('/token');
    const sidebar = await screen.findByTestId('sidebar');
    expect(within(sidebar).getByRole('link', { name: 'API tokens' })).toBeTruthy();
    expect(within(sidebar).queryByRole('link', { name: 'Channels' })).toBeNull();
    expect(within(sidebar).queryByRole('link', { name: 'System settings' })).toBeNull();
  });

  it('refuses an admin page to an ordinary user and opens it for root', async () => {
    window.localStorage.setItem('user', JSON.stringify(member));
    const { unmount } = renderLayout('/setting');
    expect(await screen.findByText('You are not allowed to open this page')).toBeTruthy();
    unmount();

    window.localStorage.setItem('user', JSON.stringify(admin));
    renderLayout('/setting');
    expect(await screen.findByText('settings page')).toBeTruthy();
    expect(within(screen.getByTestId('sidebar')).getByRole('link', { name: 'Channels' })).toBeTruthy();
  });

  it('collapses the sidebar to icons and remembers the choice', async () => {
    window.localStorage.setItem('user', JSON.stringify(member));
    const user = userEvent.setup();
    const { unmount } = renderLayout('/token');
    const sidebar = await screen.findByTestId('sidebar');
    expect(sidebar.getAttribute('data-collapsed')).toBe('false');

    await user.click(within(sidebar).getByRole('button', { name: 'Collapse sidebar' }));
    expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    expect(window.localStorage.getItem('sidebar-collapsed')).toBe('true');
    unmount();

    renderLayout('/token');
    expect((await screen.findByTestId('sidebar')).getAttribute('data-collapsed')).toBe('true');
  });

  it('starts collapsed when the status says so and nothing was chosen', async () => {
    window.localStorage.setItem('user', JSON.stringify(member));
    renderLayout('/token', { default_collapse_sidebar: true });
    await screen.findByText('Acme AI');
    // The status arrives after the first paint; the sidebar follows it.
    await screen.findByRole('button', { name: 'Expand sidebar' });
    expect(screen.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
  });

  it('shows the credit and version in the footer when no custom footer is set', async () => {
    renderLayout('/login');
    expect(await screen.findByText(/Acme AI v9\.9\.9 · Powered by Gatehouse/)).toBeTruthy();
  });

  it('keeps the public status in localStorage under the spec key names', async () => {
    renderLayout('/login', {
      docs_link: 'https://docs.example.com',
      quota_per_unit: 1000,
      display_in_currency: false,
    });
    expect(await screen.findByRole('link', { name: 'Docs' })).toBeTruthy();
    expect(window.localStorage.getItem('docs_link')).toBe('https://docs.example.com');
    expect(window.localStorage.getItem('quota_per_unit')).toBe('1000');
    expect(window.localStorage.getItem('display_in_currency')).toBe('false');
    expect(JSON.parse(window.localStorage.getItem('status') ?? '{}')).toMatchObject({
      system_name: 'Acme AI',
    });
  });
});

describe('TopBar', () => {
  it('offers the New Year fireworks only on 1 January', async () => {
    installFakeServer({ 'GET /api/status': () => envelope({ setup: true }) });
    const user = userEvent.setup();
    const { rerender } = render(
      <MemoryRouter>
        <GatehouseConsole language="en">
          <TopBar today={new Date(2026, 0, 2)} />
        </GatehouseConsole>
      </MemoryRouter>,
    );
    expect(screen.queryByRole('button', { name: 'Fireworks' })).toBeNull();

    rerender(
      <MemoryRouter>
        <GatehouseConsole language="en">
          <TopBar today={new Date(2026, 0, 1)} />
        </GatehouseConsole>
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Fireworks' }));
    expect(screen.getByTestId('fireworks').textContent).toContain('Happy New Year!');
  });

  it('switches the console language and theme and remembers both', async () => {
    installFakeServer({ 'GET /api/status': () => envelope({ setup: true }) });
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <GatehouseConsole>
          <TopBar />
        </GatehouseConsole>
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: /Language|语言/ }));
    await user.click(await screen.findByRole('menuitem', { name: '中文' }));
    expect(await screen.findByRole('button', { name: '语言' })).toBeTruthy();
    expect(window.localStorage.getItem('i18nextLng')).toBe('zh');

    await user.click(screen.getByRole('button', { name: '切换到深色主题' }));
    expect(screen.getByRole('button', { name: '切换到浅色主题' })).toBeTruthy();
    expect(window.localStorage.getItem('theme-mode')).toBe('dark');
  }, 20_000);
});

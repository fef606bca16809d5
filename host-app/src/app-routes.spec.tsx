import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { GatehouseConsole } from '@gatehouse/console-kit';
import type { ConsoleFeature } from '@gatehouse/console-kit/features';
import { buildSidebarGroups, unroutedSidebarItems } from '@gatehouse/console-kit/shell';
import { AppRoutes, hostFeatures } from './app-routes';

// Rendering MUI pages in happy-dom on a shared two-core machine can take seconds.
vi.setConfig({ testTimeout: 20_000 });

function serve(status: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const answers: Record<string, unknown> = {
    ...more,
    '/api/status': status,
    '/api/setup': { status: status.setup, root_init: false, database_type: 'sqlite' },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: Request) => {
      const data = answers[new URL(input.url).pathname];
      const body =
        data === undefined ? { success: false, message: 'not found' } : { success: true, message: '', data };
      return Promise.resolve(
        new Response(JSON.stringify(body), {
          status: data === undefined ? 404 : 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    }),
  );
}

function CurrentPath() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderApp(path: string, language: 'zh' | 'en' = 'en') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <GatehouseConsole language={language}>
        <AppRoutes />
        <CurrentPath />
      </GatehouseConsole>
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('host routes', () => {
  it.each(['/', '/login', '/token', '/anything/else'])(
    'sends %s to /setup while setup is not done',
    async (path) => {
      serve({ setup: false, system_name: 'Gatehouse' });
      renderApp(path);

      expect(await screen.findByRole('button', { name: 'Initialize system' })).toBeTruthy();
      expect(screen.getByTestId('path').textContent).toBe('/setup');
    },
  );

  it('shows the system name and version on the home page', async () => {
    serve({ setup: true, system_name: 'Acme AI', version: 'v1.2.3' });
    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Welcome to Acme AI' })).toBeTruthy();
    expect(screen.getByText('Version: v1.2.3')).toBeTruthy();
  });

  it('answers an unknown address with the not-found page', async () => {
    serve({ setup: true, system_name: 'Gatehouse' });
    renderApp('/no/such/page', 'zh');

    expect(await screen.findByText('页面不存在，请检查地址')).toBeTruthy();
    expect(screen.getByTestId('path').textContent).toBe('/no/such/page');
  });

  it('sends a visitor of the personal page to /login', async () => {
    serve({ setup: true, system_name: 'Gatehouse' });
    renderApp('/personal');

    expect(await screen.findByLabelText('Username or email')).toBeTruthy();
    expect(screen.getByTestId('path').textContent).toBe('/login');
  });

  it("sends a signed-in user's /user/edit to the personal page", async () => {
    serve({ setup: true, system_name: 'Gatehouse' });
    window.localStorage.setItem(
      'user',
      JSON.stringify({
        id: 2,
        username: 'alice',
        display_name: 'alice',
        role: 1,
        status: 1,
        group: 'default',
      }),
    );
    renderApp('/user/edit');

    await screen.findByText(
      (_text, element) =>
        element?.getAttribute('data-testid') === 'path' && element.textContent === '/personal',
      undefined,
      { timeout: 10_000 },
    );
    expect(screen.getByTestId('path').textContent).toBe('/personal');
  });

  it('opens the emailed reset link as a public page', async () => {
    serve({ setup: true, system_name: 'Gatehouse' });
    renderApp('/user/reset?email=a%40b.co&token=t0ken');

    expect(await screen.findByRole('button', { name: 'Reset my password' })).toBeTruthy();
    expect(screen.getByDisplayValue('a@b.co')).toBeTruthy();
  });

  it('loads a page on demand, showing progress until its code arrives', async () => {
    serve({ setup: true, system_name: 'Gatehouse', version: 'v1.2.3' }, { '/api/about': '' });
    renderApp('/about');

    expect(await screen.findByRole('progressbar', { name: 'Loading page' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'About' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Loading page' })).toBeNull();
  });

  it('serves the login page once setup is done', async () => {
    serve({ setup: true, system_name: 'Gatehouse' });
    renderApp('/login');

    expect(await screen.findByLabelText('Username or email')).toBeTruthy();
  });
});

describe('one feature list for routes and sidebar', () => {
  // Every switch on, two chat links and an admin: the sidebar shows every entry it can.
  const everything = {
    setup: true,
    system_name: 'Gatehouse',
    enable_data_export: true,
    enable_drawing: true,
    enable_task: true,
    chats: [{ ChatGPT: 'https://chat.example.com/?key={key}' }, { Lobe: 'https://lobe.example.com' }],
  };
  const root = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' };

  it('serves every sidebar entry with a route of the same features', () => {
    const items = buildSidebarGroups(hostFeatures, everything as never, root).flatMap((group) => group.items);
    expect(items.map((item) => item.to)).toEqual([
      '/playground',
      '/chat/0',
      '/chat/1',
      '/detail',
      '/token',
      '/log',
      '/report',
      '/midjourney',
      '/task',
      '/channel',
      '/redemption',
      '/user',
      '/setting',
      '/audit',
      '/topup',
      '/personal',
    ]);
    expect(unroutedSidebarItems(hostFeatures, everything as never, root)).toEqual([]);
  });

  it('finds a sidebar entry whose feature mounts no route for it', () => {
    const broken: ConsoleFeature = {
      id: 'broken',
      routes: [{ path: 'broken', access: 'signed-in', page: () => null }],
      sidebar: [{ section: 'console', labelKey: 'nav.logs', icon: 'log', to: '/elsewhere' }],
    };
    expect(unroutedSidebarItems([...hostFeatures, broken], everything as never, root)).toEqual([
      { labelKey: 'nav.logs', to: '/elsewhere', icon: 'log' },
    ]);
    // The entry's route in another list than the sidebar's is not enough.
    const withoutRoutes = hostFeatures.map((feature) => ({ ...feature, routes: [] }));
    expect(unroutedSidebarItems(withoutRoutes, everything as never, root)).toHaveLength(16);
  });

  it("draws the signed-in sidebar from the features' entries", async () => {
    serve(everything, { '/api/token/': { items: [], total: 0, page: 1, page_size: 10 } });
    window.localStorage.setItem('user', JSON.stringify(root));
    renderApp('/token');

    const sidebar = within(await screen.findByTestId('sidebar'));
    const links = sidebar.getAllByRole('link').map((link) => link.getAttribute('href'));
    const entries = buildSidebarGroups(hostFeatures, everything as never, root).flatMap(
      (group) => group.items,
    );
    expect(links).toEqual(entries.map((item) => item.to));
  });
});

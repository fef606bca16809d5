import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Routes } from 'react-router';
import { lazyPage, type ConsoleFeature } from '../lib/console-feature';
import { GatehouseConsole } from '../provider/gatehouse-console';
import { envelope, installFakeServer } from '../test/fake-server';
import { LocationProbe } from '../test/render-in-console';
import { featureRoutes } from './feature-routes';
import { PageSuspense } from './page-loading';

vi.setConfig({ testTimeout: 20_000 });

const member = { id: 3, username: 'bob', display_name: 'Bob', role: 1, status: 1, group: 'default' };

/** A portal's own features: one of each kind of route. */
const features: ConsoleFeature[] = [
  {
    id: 'front',
    routes: [
      { access: 'public', page: () => <p>front page</p> },
      { path: 'login', access: 'public', page: () => <p>login page</p> },
      { path: 'old-address', access: 'public', redirectTo: '/mine' },
    ],
  },
  {
    id: 'mine',
    routes: [
      {
        path: 'mine',
        access: 'signed-in',
        page: lazyPage(() => Promise.resolve({ MinePage: () => <p>my page</p> }), 'MinePage'),
      },
      { path: 'admin-only', access: 'admin', page: () => <p>admin page</p> },
    ],
  },
];

function renderRoutes(path: string) {
  installFakeServer({ 'GET /api/status': () => envelope({ setup: true }) });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <GatehouseConsole language="en">
        <PageSuspense>
          <Routes>{featureRoutes(features)}</Routes>
        </PageSuspense>
        <LocationProbe />
      </GatehouseConsole>
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('featureRoutes', () => {
  it('mounts the index route and public pages for visitors', async () => {
    renderRoutes('/');
    expect(await screen.findByText('front page')).toBeTruthy();
  });

  it('sends a visitor of a signed-in page to /login', async () => {
    renderRoutes('/mine');
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('shows a signed-in page loaded on demand, and forwards a redirect route', async () => {
    window.localStorage.setItem('user', JSON.stringify(member));
    renderRoutes('/old-address');
    expect(await screen.findByText('my page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/mine');
  });

  it('refuses an admin page to an ordinary user', async () => {
    window.localStorage.setItem('user', JSON.stringify(member));
    renderRoutes('/admin-only');
    expect(await screen.findByText('You are not allowed to open this page')).toBeTruthy();
    expect(screen.queryByText('admin page')).toBeNull();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { portalI18n } from './portal-i18n';
import { EMBED_STORAGE_PREFIX, PortalPage } from './portal-page';
import { portalStore } from './portal-store';

vi.setConfig({ testTimeout: 20_000 });

const alice = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

function serve(answers: Record<string, unknown>) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: Request) => {
      const data = answers[new URL(input.url).pathname];
      return Promise.resolve(
        new Response(
          JSON.stringify(
            data === undefined ? { success: false, message: '' } : { success: true, message: '', data },
          ),
          {
            status: data === undefined ? 404 : 200,
            headers: { 'Content-Type': 'application/json' },
          },
        ),
      );
    }),
  );
}

function renderPortal() {
  return render(
    <Provider store={portalStore}>
      <I18nextProvider i18n={portalI18n}>
        <PortalPage />
      </I18nextProvider>
    </Provider>,
  );
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('portal with one console feature', () => {
  it('asks a visitor to sign in inside the panel', async () => {
    serve({ '/api/status': { setup: true, system_name: 'Gatehouse' } });
    renderPortal();
    const panel = within(screen.getByTestId('gatehouse-panel'));
    expect(await panel.findByLabelText('Username or email')).toBeTruthy();
  });

  it('shows a signed-in user the personal settings, the one feature it mounts', async () => {
    serve({ '/api/status': { setup: true, system_name: 'Gatehouse' }, '/api/user/self': alice });
    window.localStorage.setItem(`${EMBED_STORAGE_PREFIX}user`, JSON.stringify(alice));
    renderPortal();
    const panel = within(screen.getByTestId('gatehouse-panel'));
    expect(
      await panel.findByRole('heading', { name: 'Personal settings' }, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(panel.queryByLabelText('Username or email')).toBeNull();
  });
});

import { describe, expect, it, vi } from 'vitest';

// Rendering MUI pages in happy-dom on a shared two-core machine can take seconds.
vi.setConfig({ testTimeout: 20_000 });
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mui/material';
import { envelope, installFakeServer, jsonResponse, refusal } from './fake-server';
import { renderInConsole } from './render-in-console';
import { LoginPage } from '../features/auth/login-page';
import { usePersonalTranslation } from '../features/personal/use-personal-translation';
import { useResetAccessTokenMutation } from '../features/personal/personal-api';
import { describeChanges, auditFilterOf } from '../features/security/audit-page';
import type { AuditEntry } from '../lib/security-api';
import { StepUpHost } from '../features/security/step-up-host';

const alice = { id: 7, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

describe('two-factor sign-in', () => {
  it('asks for the second factor after the password, then signs in with the code', async () => {
    const server = installFakeServer({
      'POST /api/user/login': () => envelope({ require_2fa: true }),
      'POST /api/user/login/2fa': async (request) => {
        const body = (await request.json()) as { code: string };
        return body.code === '123456'
          ? envelope(alice)
          : refusal('The two-factor code is wrong or was already used');
      },
    });
    const user = userEvent.setup();
    renderInConsole(<LoginPage />, { path: '/login' });
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(window.localStorage.getItem('user')).toBeNull();
    await user.type(screen.getByLabelText('Code or recovery code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('The two-factor code is wrong or was already used')).toBeTruthy();
    await user.clear(screen.getByLabelText('Code or recovery code'));
    await user.type(screen.getByLabelText('Code or recovery code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(alice);
    expect(server.requests.filter((r) => r.path === '/api/user/login/2fa').map((r) => r.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('opens the second step directly when a third-party sign-in sends the visitor back for it', async () => {
    installFakeServer({});
    renderInConsole(<LoginPage />, { path: '/login?second_factor=1', route: '/login' });
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
  });
});

function ResetTokenButton() {
  const { t } = usePersonalTranslation();
  const [reset, { data }] = useResetAccessTokenMutation();
  return (
    <>
      <Button
        onClick={() =>
          void reset()
            .unwrap()
            .catch(() => undefined)
        }
      >
        {t('security.resetToken')}
      </Button>
      {data && <span data-testid="token">{data}</span>}
    </>
  );
}

describe('step-up dialog', () => {
  it('asks for the password when an action needs a fresh check, then repeats the action', async () => {
    let confirmed = false;
    const server = installFakeServer({
      'GET /api/user/token': () =>
        confirmed
          ? envelope('fresh-access-token')
          : jsonResponse(
              { success: false, message: 'Confirm it is you', data: { step_up_required: true } },
              403,
            ),
      'GET /api/user/2fa': () =>
        envelope({
          enabled: false,
          totp_enabled: false,
          recovery_codes_left: 0,
          passkeys: [],
          required_for_admins: false,
        }),
      'POST /api/user/step_up': async (request) => {
        confirmed = ((await request.json()) as { password?: string }).password === 'secret-pass';
        return confirmed ? envelope({ expires_at: 1 }) : refusal('The original password is wrong');
      },
    });
    const user = userEvent.setup();
    renderInConsole(
      <>
        <ResetTokenButton />
        <StepUpHost />
      </>,
      { path: '/' },
    );
    await user.click(screen.getByRole('button', { name: /access token/i }));
    expect(await screen.findByRole('dialog', { name: 'Confirm it is you' })).toBeTruthy();
    await user.type(await screen.findByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The original password is wrong')).toBeTruthy();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByTestId('token')).textContent).toBe('fresh-access-token');
    expect(server.requests.filter((r) => r.path === '/api/user/token')).toHaveLength(2);
  });
});

describe('audit trail helpers', () => {
  const entry: AuditEntry = {
    id: 1,
    created_at: 0,
    actor_id: 1,
    actor_name: 'root',
    actor_role: 100,
    action: 'user.update',
    target_type: 'user',
    target_id: '7',
    target_name: 'alice',
    ip: '203.0.113.7',
    changes: { group: { from: 'default', to: 'vip' }, password: { secret: true } },
    summary: '',
    request_id: '',
  };
  const t = ((key: string, options?: { defaultValue?: string }) =>
    key === 'audit.secret' ? '(changed, value hidden)' : (options?.defaultValue ?? key)) as never;

  it('lists changed fields, secret ones without values', () => {
    expect(describeChanges(entry, t)).toEqual(['group: default → vip', 'password (changed, value hidden)']);
  });

  it('turns the filter form into query fields, leaving out what is empty', () => {
    expect(auditFilterOf({ actor: ' root ', kind: 'user', targetId: '', start: '', end: '' })).toEqual({
      actor: 'root',
      action: 'user',
      target_id: undefined,
      start_timestamp: undefined,
      end_timestamp: undefined,
    });
    expect(
      auditFilterOf({ actor: '', kind: 'all', targetId: '7', start: '2026-01-01T00:00', end: '' })
        .start_timestamp,
    ).toBe(Math.floor(new Date('2026-01-01T00:00').getTime() / 1000));
  });
});

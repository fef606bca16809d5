/** Authorization matrix rows of two-factor sign-in, step-up checks and the audit trail (see route.ts). */
import { type Route, r } from './route';

export const SECURITY_ROUTES: Route[] = [
  // A code without a waiting sign-in: refused as a business failure, never a session.
  r('post', '/api/user/login/2fa', 'public', { body: () => ({ code: '123456' }) }),
  r('get', '/api/user/2fa', 'user'),
  r('post', '/api/user/2fa/totp/setup', 'user'),
  r('post', '/api/user/2fa/totp/enable', 'user', { body: () => ({ code: '000000' }) }),
  r('post', '/api/user/2fa/totp/disable', 'user'),
  r('post', '/api/user/2fa/recovery_codes', 'user'),
  r('post', '/api/user/step_up', 'user', { body: () => ({ password: 'not-the-password' }) }),
  r('post', '/api/user/{id}/2fa/reset', 'admin'),
  r('delete', '/api/user/{id}/2fa', 'admin'),
  r('delete', '/api/user/{id}/reset_passkey', 'admin'),
  r('post', '/api/user/passkey/register/options', 'user'),
  r('post', '/api/user/passkey/register', 'user', { body: () => ({ response: { id: 'x' } }) }),
  r('delete', '/api/user/passkey/{id}', 'user'),
  r('post', '/api/user/passkey/login/options', 'public'),
  r('post', '/api/user/passkey/login', 'public', { body: () => ({ response: { id: 'x' } }) }),
  r('post', '/api/user/passkey/step_up/options', 'user'),
  r('post', '/api/user/passkey/step_up', 'user', { body: () => ({ response: { id: 'x' } }) }),
  r('post', '/api/channel/{id}/key', 'root'),
  r('get', '/api/audit', 'admin', { query: '?p=1&page_size=5&action=user' }),
  r('get', '/api/audit/export', 'admin', { query: '?action=user', contentType: /^text\/csv/ }),
];

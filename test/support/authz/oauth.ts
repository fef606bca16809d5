/** Authorization matrix rows of the oauth area's routes (see route.ts). */
import { type Route, r } from './route';

/** A widget payload with a hash of the right shape but not Telegram's: refused after the access check. */
const TELEGRAM = '?id=424242&first_name=Matrix&auth_date=1700000000&hash=' + '0'.repeat(64);

export const OAUTH_ROUTES: Route[] = [
  r('get', '/api/oauth/state', 'public', { query: '?aff=abc' }),
  r('get', '/api/oauth/github', 'public', { query: '?code=matrix-code&state=' + 'x'.repeat(43) }),
  r('get', '/api/oauth/oidc', 'public', { query: '?code=matrix-code&state=' + 'x'.repeat(43) }),
  r('get', '/api/oauth/linuxdo', 'public', { query: '?code=matrix-code&state=' + 'x'.repeat(43) }),
  r('get', '/api/oauth/wechat', 'public', { query: '?code=ABC123' }),
  r('get', '/api/oauth/wechat/bind', 'user', { query: '?code=ABC123' }),
  r('get', '/api/oauth/telegram/login', 'public', { query: TELEGRAM }),
  r('get', '/api/oauth/telegram/bind', 'user', { query: TELEGRAM }),
];

import { Logger } from '@nestjs/common';

/**
 * Base addresses of the providers with fixed endpoints. The defaults are the public services; the
 * environment can point them elsewhere (a GitHub Enterprise Server, or the local mock providers of
 * the tests):
 *   GITHUB_OAUTH_URL   authorize and token pages   default https://github.com
 *   GITHUB_API_URL     REST API (/user)            default https://api.github.com
 *   LINUXDO_OAUTH_URL  LinuxDO Connect             default https://connect.linux.do
 */
export interface OAuthEndpoints {
  github: { authorize: string; token: string; user: string; emails: string };
  linuxdo: { authorize: string; token: string; user: string };
}

export const OAUTH_ENDPOINTS = Symbol('OAUTH_ENDPOINTS');

function base(env: Record<string, string | undefined>, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^https?:\/\/[^/\s]+/i.test(raw)) {
    new Logger('OAuth').warn(`${name} is not an http(s) URL; using ${fallback}`);
    return fallback;
  }
  return raw.replace(/\/+$/, '');
}

export function endpointsFromEnv(env: Record<string, string | undefined> = process.env): OAuthEndpoints {
  const gh = base(env, 'GITHUB_OAUTH_URL', 'https://github.com');
  const api = base(env, 'GITHUB_API_URL', 'https://api.github.com');
  const ld = base(env, 'LINUXDO_OAUTH_URL', 'https://connect.linux.do');
  return {
    github: {
      authorize: `${gh}/login/oauth/authorize`,
      token: `${gh}/login/oauth/access_token`,
      user: `${api}/user`,
      emails: `${api}/user/emails`,
    },
    linuxdo: { authorize: `${ld}/oauth2/authorize`, token: `${ld}/oauth2/token`, user: `${ld}/api/user` },
  };
}

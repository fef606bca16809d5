import type { AppConfig } from '../../config/app-config';

/**
 * Endpoints of the providers with fixed addresses. The bases default to the public services; the
 * environment can point them elsewhere (GITHUB_OAUTH_URL, GITHUB_API_URL and LINUXDO_OAUTH_URL: a
 * GitHub Enterprise Server, or the local mock providers of the tests).
 */
export interface OAuthEndpoints {
  github: { authorize: string; token: string; user: string; emails: string };
  linuxdo: { authorize: string; token: string; user: string };
}

export const OAUTH_ENDPOINTS = Symbol('OAUTH_ENDPOINTS');

export function endpointsOf(urls: AppConfig['oauthUrls']): OAuthEndpoints {
  const { githubOAuth: gh, githubApi: api, linuxdo: ld } = urls;
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

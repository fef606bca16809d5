import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The page providers return to after a third-party sign-in or binding. */
export const oauthFeature: ConsoleFeature = {
  id: 'oauth',
  routes: [
    {
      path: 'oauth/:provider',
      access: 'public',
      page: lazyPage(() => import('./oauth-callback-page'), 'OAuthCallbackPage'),
    },
  ],
};

import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The user's API tokens. */
export const tokensFeature: ConsoleFeature = {
  id: 'tokens',
  routes: [
    { path: 'token', access: 'signed-in', page: lazyPage(() => import('./tokens-page'), 'TokensPage') },
  ],
  sidebar: [{ section: 'console', labelKey: 'nav.tokens', icon: 'token', to: '/token' }],
};

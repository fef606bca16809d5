import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The redemption codes admin. */
export const redemptionsFeature: ConsoleFeature = {
  id: 'redemptions',
  routes: [
    {
      path: 'redemption',
      access: 'signed-in',
      page: lazyPage(() => import('./redemptions-page'), 'RedemptionsPage'),
    },
  ],
  sidebar: [
    { section: 'admin', labelKey: 'nav.redemptions', icon: 'redemption', to: '/redemption', adminOnly: true },
  ],
};

import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/**
 * Password reset: the request form and the emailed link (docs/decisions.md#email-codes-and-reset), both
 * public, unlike the rest of /user.
 */
export const resetFeature: ConsoleFeature = {
  id: 'reset',
  routes: [
    {
      path: 'reset',
      access: 'public',
      page: lazyPage(() => import('./reset-request-page'), 'ResetRequestPage'),
    },
    {
      path: 'user/reset',
      access: 'public',
      page: lazyPage(() => import('./reset-confirm-page'), 'ResetConfirmPage'),
    },
  ],
};

import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** Model pricing, public. */
export const pricingFeature: ConsoleFeature = {
  id: 'pricing',
  routes: [
    { path: 'pricing', access: 'public', page: lazyPage(() => import('./pricing-page'), 'PricingPage') },
  ],
};

import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The wallet: redeem, online top-up, history. */
export const walletFeature: ConsoleFeature = {
  id: 'wallet',
  routes: [
    { path: 'topup', access: 'signed-in', page: lazyPage(() => import('./wallet-page'), 'WalletPage') },
  ],
  sidebar: [{ section: 'personal', labelKey: 'nav.wallet', icon: 'wallet', to: '/topup' }],
};

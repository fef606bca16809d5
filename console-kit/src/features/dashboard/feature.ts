import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The dashboard, listed only while data export is on. */
export const dashboardFeature: ConsoleFeature = {
  id: 'dashboard',
  routes: [
    {
      path: 'detail',
      access: 'signed-in',
      page: lazyPage(() => import('./dashboard-page'), 'DashboardPage'),
    },
  ],
  sidebar: [
    {
      section: 'console',
      labelKey: 'nav.dashboard',
      icon: 'dashboard',
      to: '/detail',
      option: 'enable_data_export',
    },
  ],
};

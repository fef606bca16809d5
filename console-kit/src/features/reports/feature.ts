import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** Usage reports. */
export const reportsFeature: ConsoleFeature = {
  id: 'reports',
  routes: [
    { path: 'report', access: 'signed-in', page: lazyPage(() => import('./reports-page'), 'ReportsPage') },
  ],
  sidebar: [{ section: 'console', labelKey: 'nav.reports', icon: 'dashboard', to: '/report' }],
};

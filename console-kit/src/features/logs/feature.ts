import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The usage log. */
export const logsFeature: ConsoleFeature = {
  id: 'logs',
  routes: [{ path: 'log', access: 'signed-in', page: lazyPage(() => import('./logs-page'), 'LogsPage') }],
  sidebar: [{ section: 'console', labelKey: 'nav.logs', icon: 'log', to: '/log' }],
};

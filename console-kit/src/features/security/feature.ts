import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The audit trail (admins). */
export const securityFeature: ConsoleFeature = {
  id: 'security',
  routes: [{ path: 'audit', access: 'admin', page: lazyPage(() => import('./audit-page'), 'AuditPage') }],
  sidebar: [{ section: 'admin', labelKey: 'nav.audit', icon: 'log', to: '/audit', adminOnly: true }],
};

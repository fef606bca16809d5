import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The settings page. */
export const settingsFeature: ConsoleFeature = {
  id: 'settings',
  routes: [
    { path: 'setting', access: 'signed-in', page: lazyPage(() => import('./settings-page'), 'SettingsPage') },
  ],
  sidebar: [{ section: 'admin', labelKey: 'nav.settings', icon: 'setting', to: '/setting', adminOnly: true }],
};

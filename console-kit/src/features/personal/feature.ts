import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The personal settings page. */
export const personalFeature: ConsoleFeature = {
  id: 'personal',
  routes: [
    {
      path: 'personal',
      access: 'signed-in',
      page: lazyPage(() => import('./personal-settings-page'), 'PersonalSettingsPage'),
    },
  ],
  sidebar: [{ section: 'personal', labelKey: 'nav.personal', icon: 'personal', to: '/personal' }],
};

import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The playground, first in the sidebar. */
export const playgroundFeature: ConsoleFeature = {
  id: 'playground',
  routes: [
    {
      path: 'playground',
      access: 'signed-in',
      page: lazyPage(() => import('./playground-page'), 'PlaygroundPage'),
    },
  ],
  sidebar: [{ section: 'playground', labelKey: 'nav.playground', icon: 'playground', to: '/playground' }],
};

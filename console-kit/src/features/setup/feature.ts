import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The first-run wizard: shown once per installation, so fetched when it is shown. */
export const setupFeature: ConsoleFeature = {
  id: 'setup',
  routes: [{ path: 'setup', access: 'public', page: lazyPage(() => import('./setup-page'), 'SetupPage') }],
};

import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The about page. */
export const aboutFeature: ConsoleFeature = {
  id: 'about',
  routes: [{ path: 'about', access: 'public', page: lazyPage(() => import('./about-page'), 'AboutPage') }],
};

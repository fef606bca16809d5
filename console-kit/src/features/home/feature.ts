import type { ConsoleFeature } from '../../lib/console-feature';
import { HomePage } from './home-page';

/** The landing page at `/`; part of the first screen. */
export const homeFeature: ConsoleFeature = {
  id: 'home',
  routes: [{ access: 'public', page: HomePage }],
};

import type { ConsoleFeature } from '../../lib/console-feature';
import { SetupPage } from './setup-page';

/** The first-run wizard; part of the first screen. */
export const setupFeature: ConsoleFeature = {
  id: 'setup',
  routes: [{ path: 'setup', access: 'public', page: SetupPage }],
};

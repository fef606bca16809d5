import type { ConsoleFeature } from '../../lib/console-feature';
import { LoginPage } from './login-page';

/** The sign-in page; part of the first screen. */
export const authFeature: ConsoleFeature = {
  id: 'auth',
  routes: [{ path: 'login', access: 'public', page: LoginPage }],
};

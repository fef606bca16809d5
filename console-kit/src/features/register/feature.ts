import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** Sign-up. */
export const registerFeature: ConsoleFeature = {
  id: 'register',
  routes: [
    { path: 'register', access: 'public', page: lazyPage(() => import('./register-page'), 'RegisterPage') },
  ],
};

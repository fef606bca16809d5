import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** One page for the list and the deep link. */
const UsersPage = lazyPage(() => import('./users-page'), 'UsersPage');

/** The users admin, with a deep link to one user's editor; a user's own edit screen is the personal page. */
export const usersFeature: ConsoleFeature = {
  id: 'users',
  routes: [
    { path: 'user', access: 'signed-in', page: UsersPage },
    { path: 'user/edit/:id', access: 'signed-in', page: UsersPage },
    { path: 'user/edit', access: 'signed-in', redirectTo: '/personal' },
  ],
  sidebar: [{ section: 'admin', labelKey: 'nav.users', icon: 'user', to: '/user', adminOnly: true }],
};

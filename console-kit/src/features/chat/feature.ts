import { chatNames } from '../../lib/chat-links';
import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/**
 * The configured chat links: one sidebar entry per link (`/chat/{index}`, shown in a frame) and
 * `/chat2link`, which goes to the first link.
 */
export const chatFeature: ConsoleFeature = {
  id: 'chat',
  routes: [
    { path: 'chat/:id?', access: 'signed-in', page: lazyPage(() => import('./chat-page'), 'ChatPage') },
    {
      path: 'chat2link',
      access: 'signed-in',
      page: lazyPage(() => import('./chat2link-page'), 'Chat2LinkPage'),
    },
  ],
  sidebar: [
    {
      section: 'chat',
      icon: 'chat',
      links: (status) => chatNames(status).map((label, index) => ({ label, to: `/chat/${index}` })),
    },
  ],
};

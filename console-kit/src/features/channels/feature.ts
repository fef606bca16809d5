import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** One page for the list and both deep links. */
const ChannelsPage = lazyPage(() => import('./channels-page'), 'ChannelsPage');

/** The channels admin, with deep links to a new channel and to one channel's editor. */
export const channelsFeature: ConsoleFeature = {
  id: 'channels',
  routes: [
    { path: 'channel', access: 'signed-in', page: ChannelsPage },
    { path: 'channel/add', access: 'signed-in', page: ChannelsPage },
    { path: 'channel/edit/:id', access: 'signed-in', page: ChannelsPage },
  ],
  sidebar: [{ section: 'admin', labelKey: 'nav.channels', icon: 'channel', to: '/channel', adminOnly: true }],
};

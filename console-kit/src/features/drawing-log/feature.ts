import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The drawing log, listed only while drawing is on. */
export const drawingLogFeature: ConsoleFeature = {
  id: 'drawing-log',
  routes: [
    {
      path: 'midjourney',
      access: 'signed-in',
      page: lazyPage(() => import('./drawing-log-page'), 'DrawingLogPage'),
    },
  ],
  sidebar: [
    {
      section: 'console',
      labelKey: 'nav.drawingLogs',
      icon: 'drawing',
      to: '/midjourney',
      option: 'enable_drawing',
    },
  ],
};

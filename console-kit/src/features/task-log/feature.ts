import { lazyPage, type ConsoleFeature } from '../../lib/console-feature';

/** The task log, listed only while tasks are on. */
export const taskLogFeature: ConsoleFeature = {
  id: 'task-log',
  routes: [
    { path: 'task', access: 'signed-in', page: lazyPage(() => import('./task-log-page'), 'TaskLogPage') },
  ],
  sidebar: [
    { section: 'console', labelKey: 'nav.taskLogs', icon: 'task', to: '/task', option: 'enable_task' },
  ],
};

/** Authorization matrix rows of the tasks area's routes (see route.ts). */
import { r, type Route } from './route';

export const TASKS_ROUTES: Route[] = [
  r('get', '/api/mj', 'admin', { query: '?p=1&page_size=5' }),
  r('get', '/api/mj/self', 'user', { query: '?p=1&page_size=5' }),
  r('get', '/api/task', 'admin', { query: '?p=1&page_size=5&platform=suno' }),
  r('get', '/api/task/self', 'user', { query: '?p=1&page_size=5' }),
];

/** Authorization matrix rows of the tasks area's routes (see route.ts). */
import { type Route } from './route';

export const TASKS_ROUTES: Route[] = [];

/** Authorization matrix rows of the logs area's routes (see route.ts). */
import { type Route } from './route';

export const LOGS_ROUTES: Route[] = [];

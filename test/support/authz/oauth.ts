/** Authorization matrix rows of the oauth area's routes (see route.ts). */
import { type Route } from './route';

export const OAUTH_ROUTES: Route[] = [];

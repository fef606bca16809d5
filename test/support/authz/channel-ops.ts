/** Authorization matrix rows of the channel-ops area's routes (see route.ts). */
import { type Route } from './route';

export const CHANNEL_OPS_ROUTES: Route[] = [];

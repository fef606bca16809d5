/** Authorization matrix rows of the wallet area's routes (see route.ts). */
import { type Route } from './route';

export const WALLET_ROUTES: Route[] = [];

import { InitialSchema1763700000000 } from './1763700000000-initial-schema';

/** Every migration, oldest first. The app and `npm run migration:run` both take them from here. */
export const MIGRATIONS = [InitialSchema1763700000000];

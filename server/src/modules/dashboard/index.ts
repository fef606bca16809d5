/**
 * The dashboard module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/dashboard/ is the module's own.
 */
export { DashboardModule } from './dashboard.module';

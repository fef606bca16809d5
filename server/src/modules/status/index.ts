/**
 * The status module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/status/ is the module's own.
 */
export { StatusModule } from './status.module';

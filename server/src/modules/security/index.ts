/**
 * The security module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/security/ is the module's own.
 */
export { SecurityModule } from './security.module';

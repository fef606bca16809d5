/**
 * The oauth module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/oauth/ is the module's own.
 */
export { OAuthModule } from './oauth.module';

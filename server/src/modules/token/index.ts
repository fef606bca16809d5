/**
 * The token module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/token/ is the module's own.
 */
export { TokenModule } from './token.module';
export { keyHint, TokenService } from './token.service';

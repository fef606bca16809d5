/**
 * The setup module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/setup/ is the module's own.
 */
export { SetupModule } from './setup.module';
export { SetupService } from './setup.service';

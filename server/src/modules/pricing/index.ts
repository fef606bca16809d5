/**
 * The pricing module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/pricing/ is the module's own.
 */
export { PricingModule } from './pricing.module';

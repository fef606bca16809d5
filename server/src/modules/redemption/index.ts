/**
 * The redemption module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/redemption/ is the module's own.
 */
export { RedemptionModule } from './redemption.module';

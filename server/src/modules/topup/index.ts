/**
 * The topup module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/topup/ is the module's own.
 */
export { TopUpModule } from './topup.module';
export { WalletCreditService } from './wallet-credit.service';

/**
 * The billing module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/billing/ is the module's own.
 */
export { BillingModule } from './billing.module';
export {
  clampQuota,
  fixedQuota,
  PriceMemo,
  priceOf,
  priceTablesFrom,
  reserveQuota,
  usageQuota,
} from './pricing';
export type { Price, PriceTables } from './pricing';
export { IN_PROGRESS, InsufficientQuota, QuotaLedgerService } from './quota-ledger.service';
export type { Hold, LogDraft, Payer, Settlement } from './quota-ledger.service';
export { emptyUsage } from './usage-counts';
export type { UsageCounts } from './usage-counts';

import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { TokenKeyHint1763800000000 } from './1763800000000-token-key-hint';
import { LogFilterIndexes1763900000400 } from './1763900000400-log-filter-indexes';
import { ScopedLimits1764000000000 } from './1764000000000-scoped-limits';
import { TwoFactorAudit1795630918000 } from './1795630918000-two-factor-audit';
import { SessionValidity1795631218000 } from './1795631218000-session-validity';
import { Budgets1795700000000 } from './1795700000000-budgets';
import { BudgetHolds1795700200000 } from './1795700200000-budget-holds';
import { ContentLogs1795700100000 } from './1795700100000-content-logs';
import { DropLogModelIndex1795700300000 } from './1795700300000-drop-log-model-index';
import { BudgetHeld1795700400000 } from './1795700400000-budget-held';
import { SecondFactorFailures1795700450000 } from './1795700450000-second-factor-failures';
import { PasskeyChallenges1795700460000 } from './1795700460000-passkey-challenges';

/** Every migration, oldest first. The app and `npm run migration:run` both take them from here. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  TokenKeyHint1763800000000,
  LogFilterIndexes1763900000400,
  ScopedLimits1764000000000,
  TwoFactorAudit1795630918000,
  SessionValidity1795631218000,
  Budgets1795700000000,
  ContentLogs1795700100000,
  BudgetHolds1795700200000,
  DropLogModelIndex1795700300000,
  BudgetHeld1795700400000,
  SecondFactorFailures1795700450000,
  PasskeyChallenges1795700460000,
];

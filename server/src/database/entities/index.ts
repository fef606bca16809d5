import { BudgetHoldRow, BudgetUsage } from './budget.entity';
import { Ability, Channel } from './channel.entity';
import { LogEntry } from './log.entity';
import { QuotaData, Setup, VerificationCode } from './misc.entity';
import { OptionRow } from './option.entity';
import { Redemption } from './redemption.entity';
import { SessionRevocation } from './session.entity';
import { AuditEntry, Passkey, PasskeyChallenge, SecondFactorFailure, UserTotp } from './security.entity';
import { Midjourney, Task } from './task.entity';
import { TopUp } from './topup.entity';
import { Token } from './token.entity';
import { User } from './user.entity';

export * from './budget.entity';
export * from './channel.entity';
export * from './log.entity';
export * from './misc.entity';
export * from './option.entity';
export * from './redemption.entity';
export * from './session.entity';
export * from './security.entity';
export * from './task.entity';
export * from './topup.entity';
export * from './token.entity';
export * from './user.entity';

export const ENTITIES = [
  User,
  OptionRow,
  Token,
  Channel,
  Ability,
  Redemption,
  LogEntry,
  TopUp,
  Midjourney,
  Task,
  QuotaData,
  Setup,
  VerificationCode,
  SessionRevocation,
  AuditEntry,
  UserTotp,
  Passkey,
  SecondFactorFailure,
  PasskeyChallenge,
  BudgetUsage,
  BudgetHoldRow,
];

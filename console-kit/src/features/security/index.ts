export { AuditPage, auditFilterOf, describeChanges } from './audit-page';
export { SecondFactorStep, PasskeySignInButton, needsSecondFactor } from './second-factor-step';
export { StepUpHost } from './step-up-host';
export { TwoFactorPanel } from './two-factor-panel';
export { ResetTwoFactorButton } from './reset-two-factor-button';
export { securityApi, auditParams } from './security-api';
export type {
  AuditEntry,
  AuditFilter,
  AuditPage as AuditPageResult,
  TwoFactorStatus,
  TotpSetup,
} from './security-api';
export { securityLocales, SECURITY_NAMESPACE } from './security-locales';
export { securityFeature } from './feature';

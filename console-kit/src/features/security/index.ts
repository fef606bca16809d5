export { AuditPage, auditFilterOf, describeChanges } from './audit-page';
export {
  SecondFactorStep,
  PasskeySignInButton,
  needsSecondFactor,
} from '../../components/second-factor-step';
export { StepUpHost } from './step-up-host';
export { TwoFactorPanel } from '../../components/two-factor-panel';
export { ResetTwoFactorButton } from '../../components/reset-two-factor-button';
export { securityApi, auditParams } from '../../lib/security-api';
export type {
  AuditEntry,
  AuditFilter,
  AuditPage as AuditPageResult,
  TwoFactorStatus,
  TotpSetup,
} from '../../lib/security-api';
export { securityLocales, SECURITY_NAMESPACE } from '../../components/security-locales';
export { securityFeature } from './feature';

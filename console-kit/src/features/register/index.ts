export { RegisterPage, AFTER_REGISTER_PATH } from './register-page';
export { registerApi, useRegisterMutation, useSendVerificationCodeMutation } from '../../lib/register-api';
export type { RegisterPayload, VerificationPurpose } from '../../lib/register-api';
export {
  validateRegisterForm,
  toRegisterPayload,
  looksLikeEmail,
  USERNAME_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  type RegisterFormValues,
  type RegisterValidationError,
} from '../../lib/account-validation';
export { useCountdown, RESEND_WAIT_SECONDS } from '../../lib/use-countdown';
export { registerLocales, REGISTER_NAMESPACE } from './register-locales';
export { registerFeature } from './feature';

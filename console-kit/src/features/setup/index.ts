export { SetupPage, SETUP_RELOAD_DELAY_MS, type SetupPageProps } from './setup-page';
export { SetupGuard, SETUP_PATH } from './setup-guard';
export {
  setupFormErrors,
  validateSetupForm,
  toSetupPayload,
  MIN_PASSWORD_LENGTH,
  type SetupFormValues,
  type SetupValidationError,
  type UsageMode,
} from './setup-form-validation';
export { setupLocales, SETUP_NAMESPACE } from './setup-locales';
export { setupFeature } from './feature';

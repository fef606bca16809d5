export { ResetRequestPage } from './reset-request-page';
export { ResetConfirmPage, RESET_CONFIRM_PATH } from './reset-confirm-page';
export { resetApi, useRequestPasswordResetMutation, useConfirmPasswordResetMutation } from './reset-api';
export { resetLocales, RESET_NAMESPACE } from './reset-locales';
export { resetFeature } from './feature';

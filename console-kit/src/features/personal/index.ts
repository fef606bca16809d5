export { PersonalSettingsPage } from './personal-settings-page';
export { ProfileCard } from './profile-card';
export { InviteCard } from './invite-card';
export { AvailableModels } from './available-models';
export { BindingsPanel } from './bindings-panel';
export { SecurityPanel } from './security-panel';
export { NotificationPanel } from './notification-panel';
export { PricePanel } from './price-panel';
export { EmailBindDialog } from './email-bind-dialog';
export {
  personalApi,
  useGetSelfModelsQuery,
  useGetAffCodeQuery,
  useTransferAffQuotaMutation,
  useUpdateSelfMutation,
  useDeleteSelfMutation,
  useResetAccessTokenMutation,
  useUpdateUserSettingMutation,
  useBindEmailMutation,
  useBindWechatMutation,
} from './personal-api';
export {
  parseUserSetting,
  validatePasswordChange,
  validateDeleteConfirmation,
  validateTransfer,
  validateNotificationSetting,
  toNotificationPayload,
  thresholdPresetLabel,
  roleLabelKey,
  MODELS_COLLAPSED_COUNT,
  WARNING_THRESHOLD_PRESETS,
  DEFAULT_FORM_WARNING_THRESHOLD,
} from './personal-rules';
export { personalLocales, PERSONAL_NAMESPACE } from './personal-locales';
export { personalFeature } from './feature';

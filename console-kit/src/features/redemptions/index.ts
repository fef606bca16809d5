export { RedemptionsPage } from './redemptions-page';
export { RedemptionDrawer, CreatedCodesDialog, type RedemptionDrawerProps } from './redemption-drawer';
export {
  redemptionsApi,
  redemptionListUrl,
  useListRedemptionsQuery,
  useGetRedemptionQuery,
  useCreateRedemptionsMutation,
  useUpdateRedemptionMutation,
  useSetRedemptionStatusMutation,
  useDeleteRedemptionMutation,
  useDeleteInvalidRedemptionsMutation,
  type Redemption,
  type RedemptionPage,
  type RedemptionListArgs,
  type CreateRedemptionPayload,
  type UpdateRedemptionPayload,
} from './redemptions-api';
export {
  codesText,
  redemptionActions,
  redemptionStatusName,
  validateRedemptionForm,
  DEFAULT_REDEMPTION_COUNT,
  DEFAULT_REDEMPTION_QUOTA,
  MAX_REDEMPTION_COUNT,
  MAX_REDEMPTION_NAME,
  type RedemptionForm,
  type RedemptionFormError,
  type RedemptionStatusName,
} from './redemption-rules';
export { redemptionsLocales, REDEMPTIONS_NAMESPACE } from './redemptions-locales';
export { redemptionsFeature } from './feature';

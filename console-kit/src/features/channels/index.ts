export { ChannelsPage } from './channels-page';
export { ChannelDrawer, DRAWER_WIDTH, type ChannelDrawerProps } from './channel-drawer';
export {
  BatchTagDialog,
  ColumnSettingsDialog,
  CopyChannelDialog,
  TagEditDrawer,
  TestModelDialog,
  UpstreamDialog,
  tagEditPayload,
  type TagEditForm,
} from './channel-dialogs';
export {
  channelsApi,
  channelListUrl,
  isTagRow,
  useListChannelsQuery,
  useGetChannelQuery,
  useCreateChannelMutation,
  useUpdateChannelMutation,
  useDeleteChannelMutation,
  useTestChannelMutation,
  useFetchModelsByIdMutation,
  useFetchModelsByKeyMutation,
  useTestUpstreamQuery,
  type Channel,
  type ChannelTagRow,
  type ChannelRow,
  type ChannelPage,
  type ChannelListArgs,
  type ChannelPayload,
  type TagEditPayload,
  type TestResult,
  type BalanceResult,
  type UpstreamGroup,
} from './channels-api';
export * from './channel-rules';
export {
  applyTypeDefaults,
  checkForm,
  emptyForm,
  formFromChannel,
  payloadFromForm,
  type ChannelForm,
} from './channel-form';
export { channelsLocales, CHANNELS_NAMESPACE } from './channels-locales';
export { channelsFeature } from './feature';

export {
  SettingsPage,
  SettingsOptions,
  SETTINGS_TABS,
  settingsTabOf,
  type SettingsTab,
} from './settings-page';
export { OperationSettings } from './operation-settings';
export { RateLimitSettings, ModelSettings } from './model-settings';
export { SystemSettings, fetchOidcEndpoints, type OidcEndpoints } from './system-settings';
export {
  OtherSettings,
  isNewerRelease,
  renderReleaseNotes,
  fetchLatestRelease,
  type ReleaseInfo,
} from './other-settings';
export { RatioSettings } from './ratio-settings';
export { PriceTableEditor } from './price-table-editor';
export { OptionsPanel, type FieldSpec, type OptionsPanelProps, type PanelContext } from './options-panel';
export {
  optionsApi,
  useGetOptionsQuery,
  useUpdateOptionMutation,
  useResetModelRatioMutation,
  useDeleteLogsBeforeMutation,
  useGetEnabledModelsQuery,
  useOptionValues,
  useSaveOptions,
  type OptionItem,
  type OptionValues,
} from './options-api';
export {
  changedOptionEntries,
  saveOptionEntries,
  normalizeOptionValue,
  type OptionEntry,
  type OptionFieldKind,
  type SaveReport,
} from './option-save';
export { checkJsonText, formatJsonText, sameJson, type JsonShape } from './json-text';
export * from './price-table';
export { addDomain, parseDomainList } from './email-domains';
export { settingsLocales, SETTINGS_NAMESPACE } from './settings-locales';
export { settingsFeature } from './feature';

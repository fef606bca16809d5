export { LogsPage } from './logs-page';
export { LogDetails } from './log-details';
export { DateTimeRange, PickersProvider, type DateTimeRangeProps } from '../../components/date-time-range';
export {
  logsApi,
  logListUrl,
  logStatUrl,
  useListLogsQuery,
  useLogStatQuery,
  useUserSummaryQuery,
  type LogListArgs,
  type UserSummary,
} from './logs-api';
export {
  logQueryParams,
  emptyLogFilters,
  defaultLogRange,
  otherDetails,
  parseOther,
  parseLogColumns,
  retryChain,
  timeSpentColor,
  firstTokenColor,
  logTypeKey,
  LOG_COLUMNS,
  LOG_COLUMNS_STORAGE_KEY,
  KNOWN_OTHER_KEYS,
  type LogEntry,
  type LogPage,
  type LogStat,
  type LogFilters,
  type LogColumn,
  type OtherDetail,
} from './log-rules';
export { PAGE_SIZE_OPTIONS, parsePageSize } from './paging';
export { logsLocales, LOGS_NAMESPACE } from './logs-locales';
export { logsFeature } from './feature';

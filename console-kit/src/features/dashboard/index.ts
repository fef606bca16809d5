export { DashboardPage } from './dashboard-page';
export { dashboardApi, useUsageDataQuery } from './dashboard-api';
export {
  bucketUsage,
  bucketLabel,
  dashboardUrl,
  defaultDashboardRange,
  granularityFromStatus,
  GRANULARITIES,
  GRANULARITY_SECONDS,
  MAX_FILLED_BUCKETS,
  type UsagePoint,
  type Granularity,
  type DashboardFilters,
  type ChartData,
  type ModelSeries,
} from './dashboard-rules';
export { dashboardLocales, DASHBOARD_NAMESPACE } from './dashboard-locales';
export { dashboardFeature } from './feature';

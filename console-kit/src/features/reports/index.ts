export { ReportsPage } from './reports-page';
export { LogExportButton } from '../../components/log-export-button';
export { reportsApi, useUsageReportQuery } from './reports-api';
export {
  consoleHeaders,
  countLines,
  downloadExport,
  fileNameOf,
  logExportUrl,
  progressPercent,
  type ExportFormat,
  type ExportProgress,
} from '../../lib/log-export';
export {
  dimensionsFor,
  reportUrl,
  reportExportUrl,
  rowLabel,
  REPORT_DIMENSIONS,
  REPORT_PERIODS,
  type Report,
  type ReportDimension,
  type ReportFilters,
  type ReportFigures,
  type ReportPeriod,
  type ReportRow,
} from './report-rules';
export { reportsLocales, REPORTS_NAMESPACE } from './reports-locales';
export { reportsFeature } from './feature';

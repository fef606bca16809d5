import { gatehouseApi } from '../../api/gatehouse-api';
import { reportUrl, type Report, type ReportFilters } from './report-rules';

export const reportsApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['Reports'] }).injectEndpoints({
  endpoints: (builder) => ({
    usageReport: builder.query<Report, { filters: ReportFilters; admin: boolean }>({
      query: ({ filters, admin }) => reportUrl(filters, admin),
      providesTags: ['Reports'],
    }),
  }),
});

export const { useUsageReportQuery } = reportsApi;

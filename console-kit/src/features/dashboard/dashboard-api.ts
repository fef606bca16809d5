import { gatehouseApi } from '../../api/gatehouse-api';
import { dashboardUrl, type DashboardFilters, type UsagePoint } from './dashboard-rules';

export const dashboardApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['UsageData'] }).injectEndpoints({
  endpoints: (builder) => ({
    usageData: builder.query<UsagePoint[], { filters: DashboardFilters; admin: boolean }>({
      query: ({ filters, admin }) => dashboardUrl(filters, admin),
      providesTags: ['UsageData'],
    }),
  }),
});

export const { useUsageDataQuery } = dashboardApi;

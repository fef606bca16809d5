import { gatehouseApi } from '../../api/gatehouse-api';
import type { Schemas } from '../../api/wire';
import { logQueryParams, type LogFilters, type LogPage, type LogStat } from './log-rules';

export interface LogListArgs {
  filters: LogFilters;
  admin: boolean;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export type UserSummary = Schemas['UserSummary'];

/** The admin list reads every user's logs; everyone else reads their own (`/self`). */
export function logListUrl({ filters, admin, page, pageSize }: LogListArgs): string {
  const params = logQueryParams(filters, admin, { page, pageSize });
  return `${admin ? '/api/log/' : '/api/log/self/'}?${params.toString()}`;
}

export function logStatUrl(filters: LogFilters, admin: boolean): string {
  const params = logQueryParams(filters, admin);
  return `${admin ? '/api/log/stat' : '/api/log/self/stat'}?${params.toString()}`;
}

export const logsApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (builder) => ({
    listLogs: builder.query<LogPage, LogListArgs>({
      query: (args) => logListUrl(args),
      providesTags: ['Logs'],
    }),
    logStat: builder.query<LogStat, { filters: LogFilters; admin: boolean }>({
      query: ({ filters, admin }) => logStatUrl(filters, admin),
      providesTags: ['Logs'],
    }),
    userSummary: builder.query<UserSummary, number>({
      query: (id) => `/api/user/${id}/summary`,
    }),
  }),
});

export const { useListLogsQuery, useLogStatQuery, useUserSummaryQuery } = logsApi;

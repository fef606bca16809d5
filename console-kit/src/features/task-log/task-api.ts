import { gatehouseApi } from '../../api/gatehouse-api';
import { taskListUrl, type TaskFilters, type TaskPage } from './task-rules';

export interface TaskListArgs {
  filters: TaskFilters;
  admin: boolean;
  page: number;
  pageSize: number;
}

export const taskLogApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['GenericTasks'] }).injectEndpoints({
  endpoints: (builder) => ({
    listGenericTasks: builder.query<TaskPage, TaskListArgs>({
      query: ({ filters, admin, page, pageSize }) => taskListUrl(filters, admin, page, pageSize),
      providesTags: ['GenericTasks'],
    }),
  }),
});

export const { useListGenericTasksQuery } = taskLogApi;

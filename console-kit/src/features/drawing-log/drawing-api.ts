import { gatehouseApi } from '../../api/gatehouse-api';
import { drawingListUrl, type DrawingFilters, type DrawingPage } from './drawing-rules';

export interface DrawingListArgs {
  filters: DrawingFilters;
  admin: boolean;
  page: number;
  pageSize: number;
}

export const drawingApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['DrawingTasks'] }).injectEndpoints({
  endpoints: (builder) => ({
    listDrawingTasks: builder.query<DrawingPage, DrawingListArgs>({
      query: ({ filters, admin, page, pageSize }) => drawingListUrl(filters, admin, page, pageSize),
      providesTags: ['DrawingTasks'],
    }),
  }),
});

export const { useListDrawingTasksQuery } = drawingApi;

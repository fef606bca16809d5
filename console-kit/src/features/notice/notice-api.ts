import { gatehouseApi } from '../../api/gatehouse-api';

export const noticeApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /** docs/decisions.md#public-site-text: `GET /api/notice` → data: string (markdown or HTML, may be empty). */
    getNotice: builder.query<string, void>({
      query: () => '/api/notice',
      providesTags: [{ type: 'SiteText', id: 'notice' }],
    }),
  }),
});

export const { useGetNoticeQuery } = noticeApi;

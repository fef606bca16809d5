import { gatehouseApi } from '../../api/gatehouse-api';

export const homeApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /** docs/decisions.md#public-site-text: `GET /api/home_page_content` → data: string (markdown/HTML, a URL, or empty). */
    getHomePageContent: builder.query<string, void>({
      query: () => '/api/home_page_content',
      providesTags: [{ type: 'SiteText', id: 'home' }],
    }),
  }),
});

export const { useGetHomePageContentQuery } = homeApi;

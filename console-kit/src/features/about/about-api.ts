import { gatehouseApi } from '../../api/gatehouse-api';

export const aboutApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /** docs/decisions.md#public-site-text: `GET /api/about` → data: string (markdown/HTML, a URL, or empty). */
    getAbout: builder.query<string, void>({
      query: () => '/api/about',
      providesTags: [{ type: 'SiteText', id: 'about' }],
    }),
  }),
});

export const { useGetAboutQuery } = aboutApi;

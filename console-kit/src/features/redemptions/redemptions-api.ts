import { gatehouseApi } from '../../api/gatehouse-api';
import type { ApiBody, Checked, Page, Schemas } from '../../api/wire';

/** A redemption code as `/api/redemption` returns it (admins); `expired_time` 0 = never. */
export type Redemption = Schemas['RedemptionView'];

export type RedemptionPage = Page<Redemption>;

export interface RedemptionListArgs {
  keyword: string;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export type CreateRedemptionPayload = Checked<
  {
    name: string;
    quota: number;
    count: number;
    /** Unix seconds; 0 = never. */
    expired_time: number;
  },
  ApiBody<'/api/redemption', 'post'>
>;

export type UpdateRedemptionPayload = Checked<
  {
    id: number;
    name?: string;
    quota?: number;
    expired_time?: number;
  },
  ApiBody<'/api/redemption', 'put'>
>;

export function redemptionListUrl({ keyword, page, pageSize }: RedemptionListArgs): string {
  const params = new URLSearchParams({ p: String(page), page_size: String(pageSize) });
  if (keyword.trim() === '') {
    return `/api/redemption/?${params.toString()}`;
  }
  params.set('keyword', keyword.trim());
  return `/api/redemption/search?${params.toString()}`;
}

export const redemptionsApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['Redemptions'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      listRedemptions: builder.query<RedemptionPage, RedemptionListArgs>({
        query: (args) => redemptionListUrl(args),
        providesTags: ['Redemptions'],
      }),
      getRedemption: builder.query<Redemption, number>({
        query: (id) => `/api/redemption/${id}`,
        providesTags: ['Redemptions'],
      }),
      /** The created codes. */
      createRedemptions: builder.mutation<string[], CreateRedemptionPayload>({
        query: (body) => ({ url: '/api/redemption/', method: 'POST', body }),
        invalidatesTags: ['Redemptions'],
      }),
      updateRedemption: builder.mutation<Redemption, UpdateRedemptionPayload>({
        query: (body) => ({ url: '/api/redemption/', method: 'PUT', body }),
        invalidatesTags: ['Redemptions'],
      }),
      setRedemptionStatus: builder.mutation<Redemption, { id: number; status: number }>({
        query: (body) => ({ url: '/api/redemption/?status_only=true', method: 'PUT', body }),
        invalidatesTags: ['Redemptions'],
      }),
      deleteRedemption: builder.mutation<null, number>({
        query: (id) => ({ url: `/api/redemption/${id}`, method: 'DELETE' }),
        invalidatesTags: ['Redemptions'],
      }),
      /** Deletes every used, disabled or expired code; answers how many. */
      deleteInvalidRedemptions: builder.mutation<number, void>({
        query: () => ({ url: '/api/redemption/invalid', method: 'DELETE' }),
        invalidatesTags: ['Redemptions'],
      }),
    }),
  });

export const {
  useListRedemptionsQuery,
  useGetRedemptionQuery,
  useCreateRedemptionsMutation,
  useUpdateRedemptionMutation,
  useSetRedemptionStatusMutation,
  useDeleteRedemptionMutation,
  useDeleteInvalidRedemptionsMutation,
} = redemptionsApi;

import type { FetchArgs } from '@reduxjs/toolkit/query';
import { gatehouseApi } from '../../api/gatehouse-api';
import type { ApiError } from '../../api/api-types';
import { normalizePricing, type PricingData } from './pricing-rules';

/** Kept from being unwrapped as an envelope: the answer's siblings of `data` are needed too. */
interface WrappedBody {
  pricing: {
    success?: unknown;
    message?: unknown;
    data?: unknown;
    group_ratio?: unknown;
    usable_group?: unknown;
  };
}

export const pricingApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /**
     * `GET /api/pricing` (public; the viewer is whoever the session names). The answer is outside the
     * envelope (`group_ratio` and `usable_group` beside `data`), so the body is read whole here.
     */
    getPricing: builder.query<PricingData, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const request: FetchArgs = {
          url: '/api/pricing',
          responseHandler: async (response) => ({ pricing: (await response.json()) as unknown }),
        };
        const result = await baseQuery(request);
        if (result.error) {
          return { error: result.error };
        }
        const body = (result.data as WrappedBody | undefined)?.pricing;
        if (!body || body.success !== true) {
          const message = typeof body?.message === 'string' ? body.message : '';
          return { error: { status: 'ENVELOPE', message } satisfies ApiError };
        }
        return { data: normalizePricing(body) };
      },
      providesTags: ['Self'],
    }),
  }),
});

export const { useGetPricingQuery } = pricingApi;

import { gatehouseApi } from '../../api/gatehouse-api';
import type { Page, Schemas } from '../../api/wire';

/** `GET /api/user/topup/info`. */
export type TopUpInfo = Schemas['TopUpInfoView'];

/** `{name, type, color}` of option PayMethods: `type` is what `/api/user/pay` takes as payment_method. */
export type PayMethod = TopUpInfo['pay_methods'][number];

/** One of the caller's online top-up orders; `status` is `pending` or `success`. */
export type TopUpOrder = Schemas['TopUpView'];

export type TopUpOrderPage = Page<TopUpOrder>;

/**
 * `/amount` and `/pay` are not enveloped the usual way (docs/api-wallet.md): a failure carries its reason
 * in `data`, and `/pay` puts the gateway address beside `data`. Their bodies travel untouched, wrapped.
 */
export interface RawAnswer {
  raw: { success?: unknown; message?: unknown; data?: unknown; url?: unknown } | null;
}

async function wrapBody(response: Response): Promise<RawAnswer> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    return { raw: typeof parsed === 'object' && parsed !== null ? parsed : null };
  } catch {
    return { raw: null };
  }
}

export const walletApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['TopUpInfo', 'TopUpOrders', 'Self'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      getTopUpInfo: builder.query<TopUpInfo, void>({
        query: () => '/api/user/topup/info',
        providesTags: ['TopUpInfo'],
      }),
      listTopUpOrders: builder.query<TopUpOrderPage, { page: number; pageSize: number }>({
        query: ({ page, pageSize }) => `/api/user/topup/self?p=${page}&page_size=${pageSize}`,
        providesTags: ['TopUpOrders'],
      }),
      /** Redeems a code; answers the quota credited. */
      redeemCode: builder.mutation<number, string>({
        query: (key) => ({ url: '/api/user/topup', method: 'POST', body: { key } }),
        invalidatesTags: ['Self'],
      }),
      quoteAmount: builder.mutation<RawAnswer, number>({
        query: (amount) => ({
          url: '/api/user/amount',
          method: 'POST',
          body: { amount, top_up_code: '' },
          responseHandler: wrapBody,
        }),
      }),
      payOnline: builder.mutation<RawAnswer, { amount: number; payment_method: string }>({
        query: (body) => ({
          url: '/api/user/pay',
          method: 'POST',
          body: { ...body, top_up_code: '' },
          responseHandler: wrapBody,
        }),
        invalidatesTags: ['TopUpOrders'],
      }),
    }),
  });

export const {
  useGetTopUpInfoQuery,
  useListTopUpOrdersQuery,
  useRedeemCodeMutation,
  useQuoteAmountMutation,
  usePayOnlineMutation,
} = walletApi;

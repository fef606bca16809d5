import { gatehouseApi } from '../../api/gatehouse-api';

export const resetApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /** Always answers success, whether or not an account has the address (docs/decisions.md#email-codes-and-reset). */
    requestPasswordReset: builder.mutation<unknown, { email: string; turnstile?: string }>({
      query: ({ email, turnstile }) => ({
        url: '/api/reset_password',
        method: 'GET',
        params: { email, ...(turnstile ? { turnstile } : {}) },
      }),
    }),
    /** Consumes the link's token; data is the new password. */
    confirmPasswordReset: builder.mutation<string, { email: string; token: string }>({
      query: (body) => ({ url: '/api/user/reset', method: 'POST', body }),
    }),
  }),
});

export const { useRequestPasswordResetMutation, useConfirmPasswordResetMutation } = resetApi;

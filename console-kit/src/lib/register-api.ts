import { gatehouseApi } from '../api/gatehouse-api';
import type { ApiBody, Checked } from '../api/wire';

export type RegisterPayload = Checked<
  {
    username: string;
    password: string;
    password2: string;
    email?: string;
    verification_code?: string;
    aff_code?: string;
  },
  ApiBody<'/api/user/register', 'post'>
>;

/** Purposes of an email code (docs/api.md): sign-up, or binding an address to a signed-in account. */
export type VerificationPurpose = 'register' | 'bind';

export const registerApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    register: builder.mutation<unknown, RegisterPayload & { turnstile?: string }>({
      query: ({ turnstile, ...body }) => ({
        url: '/api/user/register',
        method: 'POST',
        body,
        params: turnstile ? { turnstile } : undefined,
      }),
    }),
    /** Emails a 6-digit code, valid 3 minutes; the next one after 30 s. */
    sendVerificationCode: builder.mutation<
      unknown,
      { email: string; purpose?: VerificationPurpose; turnstile?: string }
    >({
      query: ({ email, purpose, turnstile }) => ({
        url: '/api/verification',
        method: 'GET',
        params: {
          email,
          ...(purpose && purpose !== 'register' ? { purpose } : {}),
          ...(turnstile ? { turnstile } : {}),
        },
      }),
    }),
  }),
});

export const { useRegisterMutation, useSendVerificationCodeMutation } = registerApi;

import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { gatehouseApi } from '../api/gatehouse-api';
import type { SessionUser } from '../api/api-types';
import type { ApiData, Page, Schemas } from '../api/wire';

/** `GET /api/user/2fa`. */
export type TwoFactorStatus = ApiData<'/api/user/2fa', 'get'>;

export type TotpSetup = Schemas['TotpSetup'];

export type AuditEntry = Schemas['AuditView'];

export type AuditPage = Page<AuditEntry>;

export interface AuditFilter {
  p: number;
  page_size: number;
  actor?: string;
  action?: string;
  target_id?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

/** Drops empty filter fields so the query string carries only what was chosen. */
export function auditParams(filter: Partial<AuditFilter>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== null && value !== '') params[key] = String(value);
  }
  return params;
}

export const securityApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['TwoFactor', 'Audit'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      /** Second step of a sign-in that answered `require_2fa`. */
      loginSecondFactor: builder.mutation<SessionUser, { code: string }>({
        query: (body) => ({ url: '/api/user/login/2fa', method: 'POST', body }),
        invalidatesTags: ['Self'],
      }),
      getTwoFactor: builder.query<TwoFactorStatus, void>({
        query: () => '/api/user/2fa',
        providesTags: ['TwoFactor'],
      }),
      setupTotp: builder.mutation<TotpSetup, void>({
        query: () => ({ url: '/api/user/2fa/totp/setup', method: 'POST' }),
      }),
      enableTotp: builder.mutation<{ recovery_codes: string[] }, { code: string }>({
        query: (body) => ({ url: '/api/user/2fa/totp/enable', method: 'POST', body }),
        invalidatesTags: ['TwoFactor'],
      }),
      disableTotp: builder.mutation<unknown, void>({
        query: () => ({ url: '/api/user/2fa/totp/disable', method: 'POST' }),
        invalidatesTags: ['TwoFactor'],
      }),
      regenerateRecoveryCodes: builder.mutation<{ recovery_codes: string[] }, void>({
        query: () => ({ url: '/api/user/2fa/recovery_codes', method: 'POST' }),
        invalidatesTags: ['TwoFactor'],
      }),
      stepUp: builder.mutation<{ expires_at: number }, { password?: string; code?: string }>({
        query: (body) => ({ url: '/api/user/step_up', method: 'POST', body }),
      }),
      passkeyRegisterOptions: builder.mutation<PublicKeyCredentialCreationOptionsJSON, void>({
        query: () => ({ url: '/api/user/passkey/register/options', method: 'POST' }),
      }),
      passkeyRegister: builder.mutation<
        { id: number; name: string },
        { response: RegistrationResponseJSON; name?: string }
      >({
        query: (body) => ({ url: '/api/user/passkey/register', method: 'POST', body }),
        invalidatesTags: ['TwoFactor'],
      }),
      removePasskey: builder.mutation<unknown, number>({
        query: (id) => ({ url: `/api/user/passkey/${id}`, method: 'DELETE' }),
        invalidatesTags: ['TwoFactor'],
      }),
      passkeyLoginOptions: builder.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
        query: () => ({ url: '/api/user/passkey/login/options', method: 'POST' }),
      }),
      passkeyLogin: builder.mutation<SessionUser, { response: AuthenticationResponseJSON }>({
        query: (body) => ({ url: '/api/user/passkey/login', method: 'POST', body }),
        invalidatesTags: ['Self'],
      }),
      passkeyStepUpOptions: builder.mutation<PublicKeyCredentialRequestOptionsJSON, void>({
        query: () => ({ url: '/api/user/passkey/step_up/options', method: 'POST' }),
      }),
      passkeyStepUp: builder.mutation<{ expires_at: number }, { response: AuthenticationResponseJSON }>({
        query: (body) => ({ url: '/api/user/passkey/step_up', method: 'POST', body }),
      }),
      /** An admin removes a user's second factors (a lost phone). */
      resetUserTwoFactor: builder.mutation<unknown, number>({
        query: (id) => ({ url: `/api/user/${id}/2fa/reset`, method: 'POST' }),
        invalidatesTags: ['Audit'],
      }),
      /** The matching entries as CSV text (the download needs the session headers, so it is fetched). */
      exportAudit: builder.mutation<string, Partial<AuditFilter>>({
        query: (filter) => ({
          url: '/api/audit/export',
          params: auditParams(filter),
          responseHandler: 'text',
        }),
      }),
      /** Root: require a second factor of admins (option AdminTwoFactorRequired). */
      setAdminTwoFactorRequired: builder.mutation<unknown, boolean>({
        query: (value) => ({
          url: '/api/option/',
          method: 'PUT',
          body: { key: 'AdminTwoFactorRequired', value: String(value) },
        }),
        invalidatesTags: ['TwoFactor', 'Options'],
      }),
      listAudit: builder.query<AuditPage, Partial<AuditFilter>>({
        query: (filter) => ({ url: '/api/audit/', params: auditParams(filter) }),
        providesTags: ['Audit'],
      }),
    }),
  });

export const {
  useLoginSecondFactorMutation,
  useGetTwoFactorQuery,
  useSetupTotpMutation,
  useEnableTotpMutation,
  useDisableTotpMutation,
  useRegenerateRecoveryCodesMutation,
  useStepUpMutation,
  usePasskeyRegisterOptionsMutation,
  usePasskeyRegisterMutation,
  useRemovePasskeyMutation,
  usePasskeyLoginOptionsMutation,
  usePasskeyLoginMutation,
  usePasskeyStepUpOptionsMutation,
  usePasskeyStepUpMutation,
  useResetUserTwoFactorMutation,
  useListAuditQuery,
  useExportAuditMutation,
  useSetAdminTwoFactorRequiredMutation,
} = securityApi;

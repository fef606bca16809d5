import { gatehouseApi } from '../../api/gatehouse-api';
import type { UserSetting } from '../../api/api-types';

export const personalApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    /** Model names the user can call. */
    getSelfModels: builder.query<string[], void>({
      query: () => '/api/user/models',
      providesTags: ['SelfModels'],
    }),
    /** The invitation code (created on first ask). */
    getAffCode: builder.query<string, void>({
      query: () => '/api/user/aff',
      providesTags: [{ type: 'Self', id: 'aff' }],
    }),
    /** Moves invitation earnings into the balance; at least one unit (QuotaPerUnit). */
    transferAffQuota: builder.mutation<unknown, { quota: number }>({
      query: (body) => ({ url: '/api/user/aff_transfer', method: 'POST', body }),
      invalidatesTags: ['Self'],
    }),
    /** docs/decisions.md#field-write-rules: display name, or a new password with the original one. */
    updateSelf: builder.mutation<
      unknown,
      { display_name?: string; password?: string; original_password?: string }
    >({
      query: (body) => ({ url: '/api/user/self', method: 'PUT', body }),
      invalidatesTags: ['Self'],
    }),
    /** Deregisters the own account; the typed account name confirms it. */
    deleteSelf: builder.mutation<unknown, { username: string }>({
      query: (body) => ({ url: '/api/user/self', method: 'DELETE', body }),
    }),
    /** A new system access token; the old one stops working. */
    resetAccessToken: builder.mutation<string, void>({
      query: () => ({ url: '/api/user/token', method: 'GET' }),
    }),
    updateUserSetting: builder.mutation<unknown, Partial<UserSetting>>({
      query: (body) => ({ url: '/api/user/setting', method: 'PUT', body }),
      invalidatesTags: ['Self'],
    }),
    bindEmail: builder.mutation<unknown, { email: string; code: string }>({
      query: (params) => ({ url: '/api/oauth/email/bind', method: 'GET', params }),
      invalidatesTags: ['Self'],
    }),
    bindWechat: builder.mutation<unknown, { code: string }>({
      query: (params) => ({ url: '/api/oauth/wechat/bind', method: 'GET', params }),
      invalidatesTags: ['Self'],
    }),
  }),
});

export const {
  useGetSelfModelsQuery,
  useGetAffCodeQuery,
  useTransferAffQuotaMutation,
  useUpdateSelfMutation,
  useDeleteSelfMutation,
  useResetAccessTokenMutation,
  useUpdateUserSettingMutation,
  useBindEmailMutation,
  useBindWechatMutation,
} = personalApi;

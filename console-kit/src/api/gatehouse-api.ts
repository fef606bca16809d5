import { buildCreateApi, coreModule } from '@reduxjs/toolkit/query';
import { reactHooksModule } from '@reduxjs/toolkit/query/react';
import type { ConsoleRuntime } from '../provider/console-runtime';
import { StorageKeys } from '../provider/console-storage';
import { useConsoleDispatch, useConsoleSelector, useConsoleStore } from '../provider/store-context';
import type {
  LoginPayload,
  SelfUser,
  SessionUser,
  SetupPayload,
  SetupState,
  SystemStatus,
} from './api-types';
import { envelopeBaseQuery } from './envelope-base-query';

const createConsoleApi = buildCreateApi(
  coreModule(),
  reactHooksModule({
    hooks: { useDispatch: useConsoleDispatch, useSelector: useConsoleSelector, useStore: useConsoleStore },
  }),
);

/**
 * The one api slice of the kit. Features add their endpoints with `gatehouseApi.injectEndpoints` from
 * their own folder, so a portal that imports one feature does not pull the others in.
 */
export const gatehouseApi = createConsoleApi({
  reducerPath: 'gatehouseApi',
  baseQuery: envelopeBaseQuery,
  tagTypes: ['Status', 'Setup', 'Self'],
  endpoints: (builder) => ({
    getStatus: builder.query<SystemStatus, void>({
      query: () => '/api/status',
      providesTags: ['Status'],
      async onQueryStarted(_arg, { queryFulfilled, extra }) {
        try {
          const { data } = await queryFulfilled;
          // The spec keeps the public status in localStorage so the next load can paint at once.
          (extra as ConsoleRuntime).storage.setJson(StorageKeys.status, data);
        } catch {
          // Failure is reported through the query state.
        }
      },
    }),
    getSetup: builder.query<SetupState, void>({
      query: () => '/api/setup',
      providesTags: ['Setup'],
    }),
    postSetup: builder.mutation<unknown, SetupPayload>({
      query: (body) => ({ url: '/api/setup', method: 'POST', body }),
      invalidatesTags: ['Setup', 'Status'],
    }),
    login: builder.mutation<SessionUser, LoginPayload>({
      query: (body) => ({ url: '/api/user/login', method: 'POST', body }),
      invalidatesTags: ['Self'],
    }),
    logout: builder.mutation<unknown, void>({
      query: () => ({ url: '/api/user/logout', method: 'GET' }),
    }),
    getSelf: builder.query<SelfUser, void>({
      query: () => '/api/user/self',
      providesTags: ['Self'],
    }),
  }),
});

export const {
  useGetStatusQuery,
  useGetSetupQuery,
  usePostSetupMutation,
  useLoginMutation,
  useLogoutMutation,
  useGetSelfQuery,
} = gatehouseApi;

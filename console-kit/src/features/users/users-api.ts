import { gatehouseApi } from '../../api/gatehouse-api';
import type { Budget } from '../../lib/budget-rules';
import type { ApiBody, ApiData, Checked, Page, Schemas } from '../../api/wire';

/**
 * A user as the admin list and `GET /api/user/{id}` return it (never a password or access token).
 * `DeletedAt` is set when the account was deregistered; `budget`: caps per period, null = none.
 */
export type AdminUser = Schemas['UserView'];

export type UserPage = Page<AdminUser>;

export interface UserListArgs {
  keyword: string;
  group: string;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export type CreateUserPayload = Checked<
  {
    username: string;
    display_name: string;
    password: string;
  },
  ApiBody<'/api/user', 'post'>
>;

export type UpdateUserPayload = Checked<
  {
    id: number;
    username: string;
    display_name: string;
    /** Blank keeps the current password. */
    password: string;
    group?: string;
    quota?: number;
    /** The balance the drawer loaded: the server applies quota − original_quota atomically. */
    original_quota?: number;
    /** Periodic budget; null clears it. */
    budget?: Budget | null;
  },
  ApiBody<'/api/user', 'put'>
>;

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete' | 'add_quota';

export type ManageResult = ApiData<'/api/user/manage', 'post'>;

/** The list call: plain paging when nothing is searched for, else the search endpoint (same shape). */
export function userListUrl({ keyword, group, page, pageSize }: UserListArgs): string {
  const params = new URLSearchParams({ p: String(page), page_size: String(pageSize) });
  if (keyword.trim() === '' && group === '') {
    return `/api/user/?${params.toString()}`;
  }
  params.set('keyword', keyword.trim());
  params.set('group', group);
  return `/api/user/search?${params.toString()}`;
}

export const usersApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['Users', 'Groups'] }).injectEndpoints({
  endpoints: (builder) => ({
    listUsers: builder.query<UserPage, UserListArgs>({
      query: (args) => userListUrl(args),
      providesTags: ['Users'],
    }),
    getUser: builder.query<AdminUser, number>({
      query: (id) => `/api/user/${id}`,
      providesTags: ['Users'],
    }),
    createUser: builder.mutation<unknown, CreateUserPayload>({
      query: (body) => ({ url: '/api/user/', method: 'POST', body }),
      invalidatesTags: ['Users'],
    }),
    updateUser: builder.mutation<AdminUser, UpdateUserPayload>({
      query: (body) => ({ url: '/api/user/', method: 'PUT', body }),
      invalidatesTags: ['Users'],
    }),
    manageUser: builder.mutation<ManageResult, { id: number; action: ManageAction; value?: number }>({
      query: (body) => ({ url: '/api/user/manage', method: 'POST', body }),
      invalidatesTags: ['Users'],
    }),
    getGroups: builder.query<string[], void>({
      query: () => '/api/group/',
      providesTags: ['Groups'],
    }),
  }),
});

export const {
  useListUsersQuery,
  useGetUserQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useManageUserMutation,
  useGetGroupsQuery,
} = usersApi;

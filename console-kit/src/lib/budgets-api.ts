import { gatehouseApi } from '../api/gatehouse-api';
import type { ApiData } from '../api/wire';
import type { BudgetStatus } from './budget-rules';

/** `GET /api/budget/self`: the signed-in user's budget and its group's. */
export type SelfBudgets = ApiData<'/api/budget/self', 'get'>;

export const budgetsApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['Budgets', 'Tokens', 'Users', 'Options'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      getSelfBudgets: builder.query<SelfBudgets, void>({
        query: () => '/api/budget/self',
        providesTags: ['Budgets', 'Users', 'Options'],
      }),
      /** The caller's own tokens among `ids` (at most 100): token id → status. */
      getTokenBudgets: builder.query<ApiData<'/api/budget/token', 'get'>, number[]>({
        query: (ids) => `/api/budget/token?ids=${ids.join(',')}`,
        providesTags: ['Budgets', 'Tokens'],
      }),
      getUserBudget: builder.query<BudgetStatus, number>({
        query: (id) => `/api/budget/user/${id}`,
        providesTags: ['Budgets', 'Users'],
      }),
      getGroupBudgets: builder.query<ApiData<'/api/budget/group', 'get'>, void>({
        query: () => '/api/budget/group',
        providesTags: ['Budgets', 'Options'],
      }),
    }),
  });

export const {
  useGetSelfBudgetsQuery,
  useGetTokenBudgetsQuery,
  useGetUserBudgetQuery,
  useGetGroupBudgetsQuery,
} = budgetsApi;

import { gatehouseApi } from '../api/gatehouse-api';
import type { BudgetStatus } from './budget-rules';

/** `GET /api/budget/self`: the signed-in user's budget and its group's. */
export interface SelfBudgets {
  zone: string;
  user: BudgetStatus;
  group: BudgetStatus & { name: string };
}

export const budgetsApi = gatehouseApi
  .enhanceEndpoints({ addTagTypes: ['Budgets', 'Tokens', 'Users', 'Options'] })
  .injectEndpoints({
    endpoints: (builder) => ({
      getSelfBudgets: builder.query<SelfBudgets, void>({
        query: () => '/api/budget/self',
        providesTags: ['Budgets', 'Users', 'Options'],
      }),
      /** The caller's own tokens among `ids` (at most 100): token id → status. */
      getTokenBudgets: builder.query<Record<string, BudgetStatus>, number[]>({
        query: (ids) => `/api/budget/token?ids=${ids.join(',')}`,
        providesTags: ['Budgets', 'Tokens'],
      }),
      getUserBudget: builder.query<BudgetStatus, number>({
        query: (id) => `/api/budget/user/${id}`,
        providesTags: ['Budgets', 'Users'],
      }),
      getGroupBudgets: builder.query<Record<string, BudgetStatus>, void>({
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

import { gatehouseApi } from '../../api/gatehouse-api';

/** `GET /api/user/self/groups` → data: group → {ratio, desc} (`auto` has ratio null). */
export type SelfGroups = Record<string, { ratio: number | null; desc: string }>;

export const playgroundApi = gatehouseApi.injectEndpoints({
  endpoints: (builder) => ({
    getPlaygroundGroups: builder.query<SelfGroups, void>({
      query: () => '/api/user/self/groups',
      providesTags: ['Groups'],
    }),
    /** docs/decisions.md#user-models-by-group: the models of one group; the playground reloads them when the group changes. */
    getPlaygroundModels: builder.query<string[], string>({
      query: (group) => ({ url: '/api/user/models', params: group ? { group } : undefined }),
      transformResponse: (data: unknown) =>
        Array.isArray(data) ? data.filter((model): model is string => typeof model === 'string') : [],
      providesTags: ['SelfModels'],
    }),
  }),
});

export const { useGetPlaygroundGroupsQuery, useGetPlaygroundModelsQuery } = playgroundApi;

export { UsersPage } from './users-page';
export { AddUserDrawer, DRAWER_WIDTH, type AddUserDrawerProps } from './add-user-drawer';
export {
  EditUserDrawer,
  AddQuotaDialog,
  type EditUserDrawerProps,
  type AddQuotaDialogProps,
} from './edit-user-drawer';
export {
  usersApi,
  userListUrl,
  useListUsersQuery,
  useGetUserQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useManageUserMutation,
  useGetGroupsQuery,
  type AdminUser,
  type UserPage,
  type UserListArgs,
  type ManageAction,
  type ManageResult,
  type CreateUserPayload,
  type UpdateUserPayload,
} from './users-api';
export {
  canActOn,
  rowActions,
  roleName,
  statusName,
  isDeregistered,
  parsePageSize,
  parseQuota,
  parseQuotaDelta,
  quotaAfterDelta,
  PAGE_SIZE_OPTIONS,
  PAGE_SIZE_STORAGE_KEY,
  DEFAULT_PAGE_SIZE,
  type RowActions,
} from './user-rules';
export { quotaText, quotaDisplayOf, useQuotaDisplay, type QuotaDisplay } from './quota-text';
export { usersLocales, USERS_NAMESPACE } from './users-locales';
export { usersFeature } from './feature';

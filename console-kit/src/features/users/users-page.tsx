import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  MenuItem,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useApiAction } from '../../api/use-api-action';
import { UserRole } from '../../api/api-types';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { AddUserDrawer } from './add-user-drawer';
import { ConfirmDialog } from '../../components/confirm-dialog';
import {
  ListPageLayout,
  ListSearchBar,
  ListSearchField,
  ListTable,
  usePaging,
} from '../../components/list-page';
import { useDeepLink } from '../../components/deep-link';
import { EditUserDrawer } from './edit-user-drawer';
import { quotaText, useQuotaDisplay, type QuotaDisplay } from './quota-text';
import { CONFIRMED_ACTIONS, isDeregistered, roleName, rowActions, statusName } from './user-rules';
import { USERS_NAMESPACE, usersLocales } from './users-locales';
import {
  useGetGroupsQuery,
  useListUsersQuery,
  useManageUserMutation,
  type AdminUser,
  type ManageAction,
} from './users-api';
import { ResetTwoFactorButton } from '../../components/reset-two-factor-button';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

const COLUMNS = ['id', 'username', 'group', 'stats', 'invite', 'role', 'status', 'actions'] as const;
const ROLE_COLORS = { user: 'default', admin: 'warning', root: 'error', unknown: 'default' } as const;
const STATUS_COLORS = { enabled: 'success', disabled: 'error', unknown: 'default' } as const;

/** Admin screen: search by keyword and group, a paged table, add and edit drawers, row actions. */
export function UsersPage() {
  const { t } = useFeatureTranslation(USERS_NAMESPACE, usersLocales);
  const { user: me } = useSession();
  if (!me || me.role < UserRole.admin) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('adminOnly')}</Alert>
      </Box>
    );
  }
  return <UsersAdmin actorRole={me.role} t={t} />;
}

function UsersAdmin({ actorRole, t }: { actorRole: number; t: Translate }) {
  const display = useQuotaDisplay();
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [keyword, setKeyword] = useState('');
  const [group, setGroup] = useState('');
  const [filters, setFilters] = useState({ keyword: '', group: '' });
  const list = useListUsersQuery({ ...filters, page, pageSize });
  const groups = useGetGroupsQuery();
  const [manageUser] = useManageUserMutation();
  const manage = useApiAction(t);
  const [pending, setPending] = useState<{ user: AdminUser; action: ManageAction } | null>(null);
  const [adding, setAdding] = useState(false);
  // /user/edit/:id opens that user's drawer straight away.
  const link = useDeepLink('/user');
  const [editingId, setEditingId] = useState<number | null>(link.editId);

  const search = () => {
    setPage(1);
    setFilters({ keyword, group });
  };

  // The server has the last word on who may do what; its reason is shown as given.
  const run = (target: AdminUser, action: ManageAction) =>
    manage.run(() => manageUser({ id: target.id, action }).unwrap(), { success: t('actions.success') });

  const act = (target: AdminUser, action: ManageAction) => {
    if (CONFIRMED_ACTIONS.has(action)) {
      setPending({ user: target, action });
    } else {
      void run(target, action);
    }
  };

  const items = list.data?.items ?? [];

  return (
    <>
      <ListPageLayout title={t('title')}>
        <ListSearchBar
          t={t}
          onSearch={search}
          actions={
            <Button variant="outlined" onClick={() => setAdding(true)}>
              {t('add')}
            </Button>
          }
        >
          <ListSearchField t={t} name="keyword" value={keyword} onChange={setKeyword} />
          <TextField
            select
            label={t('search.group')}
            name="group"
            size="small"
            value={group}
            onChange={(event) => setGroup(event.target.value)}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="">{t('search.allGroups')}</MenuItem>
            {(groups.data ?? []).map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
        </ListSearchBar>

        <ListTable
          t={t}
          label={t('title')}
          columns={COLUMNS}
          phoneColumns={{ invite: 'hide', actions: 'wide' }}
          query={list}
          paging={paging}
        >
          {items.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              actorRole={actorRole}
              display={display}
              t={t}
              onAction={act}
              onEdit={() => setEditingId(user.id)}
            />
          ))}
        </ListTable>
      </ListPageLayout>

      <AddUserDrawer open={adding} onClose={() => setAdding(false)} />
      <EditUserDrawer
        userId={editingId}
        onClose={() => {
          setEditingId(null);
          link.close();
        }}
      />
      <ConfirmDialog
        open={pending !== null}
        title={t('actions.confirmTitle')}
        message={pending ? t(`actions.${pending.action}Confirm`, { username: pending.user.username }) : ''}
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        busy={manage.busy}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending) {
            void run(pending.user, pending.action);
          }
          setPending(null);
        }}
      />
    </>
  );
}

interface UserRowProps {
  user: AdminUser;
  actorRole: number;
  display: QuotaDisplay;
  t: Translate;
  onAction: (user: AdminUser, action: ManageAction) => void;
  onEdit: () => void;
}

function UserRow({ user, actorRole, display, t, onAction, onEdit }: UserRowProps) {
  const deregistered = isDeregistered(user);
  const actions = rowActions(actorRole, user);
  const role = roleName(user.role);
  const status = statusName(user.status);
  const anyAction = Object.values(actions).some(Boolean);
  const button = (action: ManageAction, color: 'primary' | 'warning' | 'error' | 'success' = 'primary') => (
    <Button
      key={action}
      size="small"
      color={color}
      onClick={() => onAction(user, action)}
      disabled={action === 'enable' && actions.enableDisabled}
    >
      {t(`actions.${action}`)}
    </Button>
  );

  return (
    <TableRow
      data-testid={`user-row-${user.id}`}
      data-deregistered={deregistered ? 'true' : undefined}
      sx={deregistered ? { opacity: 0.55, '& td': { textDecoration: 'line-through' } } : undefined}
    >
      <TableCell>{user.id}</TableCell>
      <TableCell>
        <Typography variant="body2">{user.username}</Typography>
        {user.display_name && user.display_name !== user.username && (
          <Typography variant="caption" color="text.secondary">
            {user.display_name}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <Chip size="small" label={user.group} />
      </TableCell>
      <TableCell>
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Chip
            size="small"
            color="primary"
            variant="outlined"
            label={t('stats.remaining', { value: quotaText(user.quota, display) })}
          />
          <Chip
            size="small"
            variant="outlined"
            label={t('stats.used', { value: quotaText(user.used_quota, display) })}
          />
          <Chip size="small" variant="outlined" label={t('stats.requests', { value: user.request_count })} />
        </Stack>
      </TableCell>
      <TableCell>
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Chip size="small" variant="outlined" label={t('invite.count', { value: user.aff_count })} />
          <Chip
            size="small"
            variant="outlined"
            label={t('invite.earned', { value: quotaText(user.aff_history_quota, display) })}
          />
          <Chip
            size="small"
            variant="outlined"
            label={user.inviter_id ? t('invite.inviter', { value: user.inviter_id }) : t('invite.none')}
          />
        </Stack>
      </TableCell>
      <TableCell>
        <Chip size="small" color={ROLE_COLORS[role]} label={t(`role.${role}`)} />
      </TableCell>
      <TableCell sx={{ textDecoration: 'none !important' }}>
        {deregistered ? (
          <Chip size="small" color="default" variant="outlined" label={t('status.deregistered')} />
        ) : (
          <Chip size="small" color={STATUS_COLORS[status]} label={t(`status.${status}`)} />
        )}
      </TableCell>
      <TableCell>
        {deregistered ? null : anyAction ? (
          // Two rows of buttons at most instead of one row wider than a desktop screen.
          <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 0.5, maxWidth: 280 }}>
            {actions.promote && button('promote', 'warning')}
            {actions.demote && button('demote', 'warning')}
            {actions.enable && button('enable', 'success')}
            {actions.disable && button('disable', 'warning')}
            {actions.edit && (
              <Button size="small" onClick={onEdit}>
                {t('actions.edit')}
              </Button>
            )}
            {actions.edit && <ResetTwoFactorButton user={user} />}
            {actions.delete && button('delete', 'error')}
          </Box>
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t('actions.noPermission')}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}

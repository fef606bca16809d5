import { useState } from 'react';
import { Alert, Box, Button, Chip, Stack, TableCell, TableRow } from '@mui/material';
import dayjs from 'dayjs';
import { UserRole } from '../../api/api-types';
import { useApiAction } from '../../api/use-api-action';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useCopyText } from '../../provider/clipboard';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import {
  ListPageLayout,
  ListSearchBar,
  ListSearchField,
  ListTable,
  usePaging,
} from '../../components/list-page';
import { CreatedCodesDialog, RedemptionDrawer } from './redemption-drawer';
import { redemptionActions, redemptionExpiryLabel, redemptionStatusName } from './redemption-rules';
import {
  useDeleteInvalidRedemptionsMutation,
  useDeleteRedemptionMutation,
  useListRedemptionsQuery,
  useSetRedemptionStatusMutation,
  type Redemption,
} from './redemptions-api';
import { REDEMPTIONS_NAMESPACE, redemptionsLocales } from './redemptions-locales';

const STATUS_COLORS = {
  unused: 'success',
  disabled: 'default',
  used: 'info',
  expired: 'warning',
  unknown: 'default',
} as const;

const COLUMNS = ['id', 'name', 'status', 'quota', 'created', 'expires', 'redeemedBy', 'actions'] as const;

type Pending = { kind: 'delete'; code: Redemption } | { kind: 'invalid' };

/** Admin screen `/redemption`: search, list, create (showing the codes), edit, status, delete. */
export function RedemptionsPage() {
  const { t } = useFeatureTranslation(REDEMPTIONS_NAMESPACE, redemptionsLocales);
  const { user } = useSession();
  if (!user || user.role < UserRole.admin) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('adminOnly')}</Alert>
      </Box>
    );
  }
  return <RedemptionsAdmin />;
}

function RedemptionsAdmin() {
  const { t } = useFeatureTranslation(REDEMPTIONS_NAMESPACE, redemptionsLocales);
  const copyText = useCopyText();
  const { formatQuota } = useQuotaFormat();
  const paging = usePaging();
  const { page, pageSize, setPage } = paging;
  const [keyword, setKeyword] = useState('');
  const [filter, setFilter] = useState('');
  const [drawer, setDrawer] = useState<number | 'new' | null>(null);
  const [created, setCreated] = useState<string[] | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useListRedemptionsQuery({ keyword: filter, page, pageSize });
  const [setStatus] = useSetRedemptionStatusMutation();
  const [deleteCode] = useDeleteRedemptionMutation();
  const [deleteInvalid] = useDeleteInvalidRedemptionsMutation();
  const action = useApiAction(t);
  const items = list.data?.items ?? [];

  const search = () => {
    setPage(1);
    setFilter(keyword);
  };

  const changeStatus = (code: Redemption, status: 1 | 2) =>
    action.run(() => setStatus({ id: code.id, status }).unwrap(), { success: t('actions.success') });

  const confirm = async () => {
    const current = pending;
    setPending(null);
    if (!current) return;
    if (current.kind === 'delete') {
      await action.run(() => deleteCode(current.code.id).unwrap(), { success: t('actions.deleted') });
    } else {
      await action.run(() => deleteInvalid().unwrap(), {
        success: (count) => t('deletedInvalid', { count }),
      });
    }
  };

  return (
    <>
      <ListPageLayout title={t('title')}>
        <ListSearchBar
          t={t}
          onSearch={search}
          actions={
            <>
              <Button variant="outlined" onClick={() => setDrawer('new')}>
                {t('add')}
              </Button>
              <Button variant="outlined" color="error" onClick={() => setPending({ kind: 'invalid' })}>
                {t('deleteInvalid')}
              </Button>
            </>
          }
        >
          <ListSearchField t={t} name="keyword" value={keyword} onChange={setKeyword} />
        </ListSearchBar>

        <ListTable
          t={t}
          label={t('title')}
          columns={COLUMNS}
          phoneColumns={{ created: 'hide', actions: 'wide' }}
          query={list}
          paging={paging}
        >
          {items.map((code) => {
            const status = redemptionStatusName(code);
            const actions = redemptionActions(code);
            return (
              <TableRow key={code.id} data-testid={`redemption-row-${code.id}`} hover>
                <TableCell>{code.id}</TableCell>
                <TableCell>{code.name}</TableCell>
                <TableCell>
                  <Chip size="small" color={STATUS_COLORS[status]} label={t(`status.${status}`)} />
                </TableCell>
                <TableCell>{formatQuota(code.quota)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {dayjs(code.created_time * 1000).format('YYYY-MM-DD HH:mm:ss')}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }} data-testid="redemption-expires">
                  {redemptionExpiryLabel(code.expired_time) ?? t('never')}
                </TableCell>
                <TableCell>{code.used_user_id ? code.used_user_id : t('none')}</TableCell>
                <TableCell>
                  <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                    <Button size="small" onClick={() => void copyText(code.key, t('actions.copied'))}>
                      {t('actions.copy')}
                    </Button>
                    {actions.disable && (
                      <Button size="small" color="warning" onClick={() => void changeStatus(code, 2)}>
                        {t('actions.disable')}
                      </Button>
                    )}
                    {actions.enable && (
                      <Button size="small" color="success" onClick={() => void changeStatus(code, 1)}>
                        {t('actions.enable')}
                      </Button>
                    )}
                    {actions.edit && (
                      <Button size="small" onClick={() => setDrawer(code.id)}>
                        {t('actions.edit')}
                      </Button>
                    )}
                    <Button size="small" color="error" onClick={() => setPending({ kind: 'delete', code })}>
                      {t('actions.delete')}
                    </Button>
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </ListTable>
      </ListPageLayout>

      <RedemptionDrawer target={drawer} onClose={() => setDrawer(null)} onCreated={setCreated} />
      <CreatedCodesDialog codes={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={pending !== null}
        title={t('actions.confirmTitle')}
        message={
          pending?.kind === 'delete'
            ? t('actions.deleteConfirm', { name: pending.code.name })
            : pending
              ? t('deleteInvalidConfirm')
              : ''
        }
        confirmLabel={t('actions.confirm')}
        cancelLabel={t('actions.cancel')}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </>
  );
}

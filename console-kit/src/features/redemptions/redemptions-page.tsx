import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import dayjs from 'dayjs';
import { UserRole } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useCopyText } from '../../provider/clipboard';
import { useConsoleStorage, useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSession } from '../../provider/use-session';
import { ConfirmDialog } from './confirm-dialog';
import { CreatedCodesDialog, RedemptionDrawer } from './redemption-drawer';
import { PAGE_SIZE_OPTIONS, redemptionActions, redemptionStatusName } from './redemption-rules';
import {
  useDeleteInvalidRedemptionsMutation,
  useDeleteRedemptionMutation,
  useListRedemptionsQuery,
  useSetRedemptionStatusMutation,
  type Redemption,
} from './redemptions-api';
import { REDEMPTIONS_NAMESPACE, redemptionsLocales } from './redemptions-locales';

const PAGE_SIZE_KEY = 'page-size';
const STATUS_COLORS = {
  unused: 'success',
  disabled: 'default',
  used: 'info',
  expired: 'warning',
  unknown: 'default',
} as const;

function storedPageSize(value: string | null): number {
  const size = Number(value);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(size) ? size : 10;
}

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
  const storage = useConsoleStorage();
  const notify = useNotify();
  const copyText = useCopyText();
  const { formatQuota } = useQuotaFormat();
  const [pageSize, setPageSize] = useState(() => storedPageSize(storage.getItem(PAGE_SIZE_KEY)));
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [filter, setFilter] = useState('');
  const [drawer, setDrawer] = useState<number | 'new' | null>(null);
  const [created, setCreated] = useState<string[] | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useListRedemptionsQuery({ keyword: filter, page, pageSize });
  const [setStatus] = useSetRedemptionStatusMutation();
  const [deleteCode] = useDeleteRedemptionMutation();
  const [deleteInvalid] = useDeleteInvalidRedemptionsMutation();
  const items = list.data?.items ?? [];

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setFilter(keyword);
  };

  const changeStatus = async (code: Redemption, status: 1 | 2) => {
    try {
      await setStatus({ id: code.id, status }).unwrap();
      notify(t('actions.success'), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  const confirm = async () => {
    const current = pending;
    setPending(null);
    if (!current) return;
    try {
      if (current.kind === 'delete') {
        await deleteCode(current.code.id).unwrap();
        notify(t('actions.deleted'), 'success');
      } else {
        const count = await deleteInvalid().unwrap();
        notify(t('deletedInvalid', { count }), 'success');
      }
    } catch (failure) {
      notify(describeApiError(failure, t), 'error');
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Paper component="form" role="search" onSubmit={search} sx={{ p: 2 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              label={t('search.keyword')}
              placeholder={t('search.keywordPlaceholder')}
              name="keyword"
              size="small"
              value={keyword}
              onChange={(event) => setKeyword(event.target.value)}
              sx={{ flexGrow: 1 }}
            />
            <Button type="submit" variant="contained">
              {t('search.submit')}
            </Button>
            <Button variant="outlined" onClick={() => setDrawer('new')}>
              {t('add')}
            </Button>
            <Button variant="outlined" color="error" onClick={() => setPending({ kind: 'invalid' })}>
              {t('deleteInvalid')}
            </Button>
          </Stack>
        </Paper>

        {list.isError && <Alert severity="error">{describeApiError(list.error, t, t('loadFailed'))}</Alert>}

        <Paper>
          {list.isFetching && <LinearProgress />}
          <TableContainer>
            <Table size="small" aria-label={t('title')} sx={{ '& th': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('columns.id')}</TableCell>
                  <TableCell>{t('columns.name')}</TableCell>
                  <TableCell>{t('columns.status')}</TableCell>
                  <TableCell>{t('columns.quota')}</TableCell>
                  <TableCell>{t('columns.created')}</TableCell>
                  <TableCell>{t('columns.redeemedBy')}</TableCell>
                  <TableCell>{t('columns.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
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
                          <Button
                            size="small"
                            color="error"
                            onClick={() => setPending({ kind: 'delete', code })}
                          >
                            {t('actions.delete')}
                          </Button>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                })}
                {!list.isFetching && items.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={7} align="center">
                      {t('empty')}
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={list.data?.total ?? 0}
            page={Math.max(0, page - 1)}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
            onPageChange={(_event, next) => setPage(next + 1)}
            onRowsPerPageChange={(event) => {
              const next = storedPageSize(event.target.value);
              storage.setItem(PAGE_SIZE_KEY, String(next));
              setPageSize(next);
              setPage(1);
            }}
            labelRowsPerPage={t('pagination.rowsPerPage')}
            labelDisplayedRows={({ from, to, count }) => t('pagination.displayed', { from, to, count })}
          />
        </Paper>
      </Stack>

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
    </Box>
  );
}

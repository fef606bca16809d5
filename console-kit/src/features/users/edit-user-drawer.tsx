import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { FormDrawer, useUnsavedEdits } from '../../components/form-drawer';
import { describeApiError } from '../../api/describe-api-error';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { ContentLogSwitch } from '../../components/content-log-switch';
import { BudgetEditor } from '../../components/budget-editor';
import { buildBudget, budgetFormOf } from '../../lib/budget-rules';
import { BudgetUsage } from '../../components/budget-usage';
import { useGetUserBudgetQuery } from '../../lib/budgets-api';
import { DRAWER_WIDTH } from './add-user-drawer';
import { quotaText, useQuotaDisplay } from './quota-text';
import { parseQuota, parseQuotaDelta, quotaAfterDelta } from './user-rules';
import { USERS_NAMESPACE, usersLocales } from './users-locales';
import {
  useGetGroupsQuery,
  useGetUserQuery,
  useManageUserMutation,
  useUpdateUserMutation,
  type AdminUser,
} from './users-api';

export interface EditUserDrawerProps {
  /** The user being edited; null closes the drawer. */
  userId: number | null;
  onClose: () => void;
}

export function EditUserDrawer({ userId, onClose }: EditUserDrawerProps) {
  return (
    <FormDrawer open={userId !== null} onClose={onClose} width={DRAWER_WIDTH}>
      {userId !== null && <EditUserLoader userId={userId} onClose={onClose} />}
    </FormDrawer>
  );
}

function EditUserLoader({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useFeatureTranslation(USERS_NAMESPACE, usersLocales);
  // Always fresh: the quota delta is computed against the balance read here.
  const user = useGetUserQuery(userId, { refetchOnMountOrArgChange: true });
  if (user.isFetching && !user.data) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('form.editTitle')} />
      </Box>
    );
  }
  if (user.isError || !user.data) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{describeApiError(user.error, t, t('form.loadFailed'))}</Alert>
        <Button sx={{ mt: 2 }} onClick={onClose}>
          {t('form.cancel')}
        </Button>
      </Box>
    );
  }
  return <EditUserForm key={user.data.id} user={user.data} onClose={onClose} />;
}

function EditUserForm({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useFeatureTranslation(USERS_NAMESPACE, usersLocales);
  const notify = useNotify();
  const display = useQuotaDisplay();
  const groups = useGetGroupsQuery();
  const [updateUser, { isLoading: saving }] = useUpdateUserMutation();
  const [username, setUsername] = useState(user.username);
  const [displayName, setDisplayName] = useState(user.display_name);
  const [password, setPassword] = useState('');
  const [group, setGroup] = useState(user.group);
  const [quota, setQuota] = useState(String(user.quota));
  // The balance this form is based on; the server applies (quota − originalQuota).
  const [originalQuota, setOriginalQuota] = useState(user.quota);
  const [error, setError] = useState<string | null>(null);
  const [addQuotaOpen, setAddQuotaOpen] = useState(false);
  const [budget, setBudget] = useState(() => budgetFormOf(user.budget));
  const budgetUsage = useGetUserBudgetQuery(user.id, { refetchOnMountOrArgChange: true });
  // A quota added through the dialog is saved already; only a pending edit of the field counts.
  useUnsavedEdits(
    username !== user.username ||
      displayName !== user.display_name ||
      password !== '' ||
      group !== user.group ||
      quota !== String(originalQuota) ||
      JSON.stringify(budget) !== JSON.stringify(budgetFormOf(user.budget)),
  );

  const parsedQuota = parseQuota(quota);
  const groupChoices = Array.from(new Set([...(groups.data ?? []), user.group])).filter(Boolean);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '') {
      setError(t('form.required'));
      return;
    }
    if (parsedQuota === null) {
      setError(t('form.quotaInvalid'));
      return;
    }
    const builtBudget = buildBudget(budget);
    if (!builtBudget.ok) {
      setError(t('form.budgetInvalid'));
      return;
    }
    setError(null);
    try {
      await updateUser({
        id: user.id,
        username: username.trim(),
        display_name: displayName,
        password,
        group,
        quota: parsedQuota,
        original_quota: originalQuota,
        // Sent only when edited: an unchanged budget is not rewritten.
        ...(JSON.stringify(budget) !== JSON.stringify(budgetFormOf(user.budget))
          ? { budget: builtBudget.budget }
          : {}),
      }).unwrap();
      notify(t('form.updated'), 'success');
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  const quotaAdded = (newBalance: number) => {
    // A pending edit of the balance field keeps its own difference on top of the new balance.
    const pendingDelta = parsedQuota === null ? 0 : parsedQuota - originalQuota;
    setOriginalQuota(newBalance);
    setQuota(String(Math.max(0, newBalance + pendingDelta)));
  };

  const bindings: [string, string][] = [
    [t('form.email'), user.email],
    [t('form.githubId'), user.github_id],
    [t('form.oidcId'), user.oidc_id],
    [t('form.wechatId'), user.wechat_id],
    [t('form.telegramId'), user.telegram_id],
    [t('form.linuxDoId'), user.linux_do_id],
  ];

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('form.editTitle')} · #{user.id}
        </Typography>
        <TextField
          label={t('form.username')}
          name="username"
          autoComplete="off"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          required
          fullWidth
        />
        <TextField
          label={t('form.displayName')}
          name="display_name"
          autoComplete="off"
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
          fullWidth
        />
        <TextField
          label={t('form.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          placeholder={t('form.passwordKeep')}
          helperText={t('form.passwordKeep')}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          fullWidth
        />
        <TextField
          select
          label={t('form.group')}
          name="group"
          value={group}
          onChange={(event) => setGroup(event.target.value)}
          fullWidth
        >
          {groupChoices.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={t('form.quota')}
            name="quota"
            value={quota}
            onChange={(event) => setQuota(event.target.value)}
            error={parsedQuota === null}
            helperText={
              parsedQuota === null
                ? t('form.quotaInvalid')
                : t('form.quotaHint', {
                    value: quotaText(parsedQuota, { ...display, displayInCurrency: true }),
                  })
            }
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            fullWidth
          />
          <Button
            variant="outlined"
            onClick={() => setAddQuotaOpen(true)}
            sx={{ whiteSpace: 'nowrap', mt: 1 }}
          >
            {t('form.addQuota')}
          </Button>
        </Stack>

        <Divider />
        <Typography variant="subtitle2" component="h3">
          {t('form.bindings')}
        </Typography>
        <Table size="small">
          <TableBody>
            {bindings.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row" sx={{ width: 160 }}>
                  {label}
                </TableCell>
                <TableCell>{value || t('form.notBound')}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <BudgetEditor value={budget} onChange={setBudget} />
        <BudgetUsage status={budgetUsage.data} />
        <ContentLogSwitch scope="user" id={user.id} />

        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {t('form.submit')}
          </Button>
        </Stack>
      </Stack>
      <AddQuotaDialog
        open={addQuotaOpen}
        userId={user.id}
        currentQuota={originalQuota}
        onClose={() => setAddQuotaOpen(false)}
        onAdded={quotaAdded}
      />
    </Box>
  );
}

export interface AddQuotaDialogProps {
  open: boolean;
  userId: number;
  currentQuota: number;
  onClose: () => void;
  onAdded: (newBalance: number) => void;
}

/** Spec: the amount may be negative; the dialog shows old quota, delta and new quota. */
export function AddQuotaDialog({ open, userId, currentQuota, onClose, onAdded }: AddQuotaDialogProps) {
  const { t } = useFeatureTranslation(USERS_NAMESPACE, usersLocales);
  const notify = useNotify();
  const display = useQuotaDisplay();
  const [manageUser, { isLoading }] = useManageUserMutation();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const delta = parseQuotaDelta(amount);
  const next = quotaAfterDelta(currentQuota, delta ?? 0);
  // The server refuses a balance below zero; say so here instead of after Confirm.
  const belowZero = next < 0;
  const show = (value: number) => `${quotaText(value, display)} (${value})`;

  const close = () => {
    setAmount('');
    setError(null);
    onClose();
  };

  const submit = async () => {
    if (delta === null) {
      setError(t('addQuota.invalid'));
      return;
    }
    if (belowZero) {
      return;
    }
    try {
      const result = await manageUser({ id: userId, action: 'add_quota', value: delta }).unwrap();
      notify(t('actions.success'), 'success');
      onAdded(result.quota ?? quotaAfterDelta(currentQuota, delta));
      close();
    } catch (failure) {
      setError(describeApiError(failure, t));
    }
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={`${id}-title`} fullWidth maxWidth="xs">
      <DialogTitle id={`${id}-title`}>{t('addQuota.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('addQuota.amount')}
            name="add_quota"
            value={amount}
            onChange={(event) => {
              setAmount(event.target.value);
              setError(null);
            }}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            autoFocus
            fullWidth
          />
          <Table size="small" aria-label={t('addQuota.title')}>
            <TableBody>
              <TableRow>
                <TableCell component="th" scope="row">
                  {t('addQuota.current')}
                </TableCell>
                <TableCell data-testid="quota-old">{show(currentQuota)}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell component="th" scope="row">
                  {t('addQuota.delta')}
                </TableCell>
                <TableCell data-testid="quota-delta">
                  {delta === null ? '-' : `${delta > 0 ? '+' : ''}${show(delta)}`}
                </TableCell>
              </TableRow>
              <TableRow>
                <TableCell component="th" scope="row">
                  {t('addQuota.next')}
                </TableCell>
                <TableCell data-testid="quota-new" sx={belowZero ? { color: 'error.main' } : undefined}>
                  {show(next)}
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
          {belowZero && (
            <Alert severity="warning" data-testid="quota-below-zero">
              {t('addQuota.belowZero')}
            </Alert>
          )}
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('addQuota.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={isLoading || belowZero}>
          {t('addQuota.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

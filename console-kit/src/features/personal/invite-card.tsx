import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useHref } from 'react-router';
import type { SelfUser } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useCopyText } from '../../provider/clipboard';
import { useNotify } from '../../provider/console-context';
import { CopyIcon } from '../../shell/shell-icons';
import { useGetAffCodeQuery, useTransferAffQuotaMutation } from './personal-api';
import { validateTransfer } from './personal-rules';
import { usePersonalTranslation } from './use-personal-translation';

function TransferDialog({
  open,
  available,
  onClose,
}: {
  open: boolean;
  available: number;
  onClose: () => void;
}) {
  const { t } = usePersonalTranslation();
  const { options, formatQuota } = useQuotaFormat();
  const notify = useNotify();
  const [transfer, { isLoading }] = useTransferAffQuotaMutation();
  const [amount, setAmount] = useState(String(available));
  const [error, setError] = useState<string | null>(null);
  const numeric = Number(amount);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateTransfer(
      amount.trim() === '' ? Number.NaN : numeric,
      available,
      options.quotaPerUnit,
      formatQuota,
    );
    if (problem) {
      setError(t(problem.messageKey, problem.values));
      return;
    }
    try {
      await transfer({ quota: numeric }).unwrap();
      notify(t('transfer.success'), 'success');
      onClose();
    } catch (failure) {
      setError(describeApiError(failure, t, t('failed')));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="gatehouse-transfer-title">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="gatehouse-transfer-title">{t('transfer.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography>{t('transfer.available', { amount: formatQuota(available) })}</Typography>
            <TextField
              label={t('transfer.amount')}
              name="quota"
              type="number"
              value={amount}
              autoFocus
              onChange={(event) => {
                setAmount(event.target.value);
                setError(null);
              }}
              helperText={
                Number.isFinite(numeric) && amount.trim() !== ''
                  ? `${t('transfer.equals', { amount: formatQuota(numeric) })} · ${t('transfer.minHint', { min: formatQuota(options.quotaPerUnit) })}`
                  : t('transfer.minHint', { min: formatQuota(options.quotaPerUnit) })
              }
              slotProps={{ htmlInput: { min: options.quotaPerUnit, step: 1 } }}
              fullWidth
            />
            {error && <Alert severity="error">{error}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('transfer.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The invite link, the rewards it earned, and the transfer of earnings into the balance. */
export function InviteCard({ self }: { self: SelfUser }) {
  const { t } = usePersonalTranslation();
  const { formatQuota } = useQuotaFormat();
  const copyText = useCopyText();
  const registerHref = useHref('/register');
  const fetched = useGetAffCodeQuery(undefined, { skip: Boolean(self.aff_code) });
  const code = self.aff_code || fetched.data || '';
  const link = code ? `${window.location.origin}${registerHref}?aff=${encodeURIComponent(code)}` : '';
  const [transferOpen, setTransferOpen] = useState(false);
  const pending = self.aff_quota ?? 0;

  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('invite.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {t('invite.hint')}
        </Typography>
        <TextField
          label={t('invite.link')}
          value={link}
          fullWidth
          size="small"
          sx={{ my: 1 }}
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'invite-link' },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t('invite.copyLink')}>
                    <span>
                      <IconButton
                        aria-label={t('invite.copyLink')}
                        edge="end"
                        disabled={!link}
                        onClick={() => void copyText(link, t('invite.linkCopied'))}
                      >
                        <CopyIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, my: 1 }}>
          <Box sx={{ flex: '1 1 0', minWidth: 90 }}>
            <Typography variant="caption" color="text.secondary" component="p">
              {t('invite.pending')}
            </Typography>
            <Typography variant="h6" component="p" data-testid="aff-pending">
              {formatQuota(pending)}
            </Typography>
          </Box>
          <Box sx={{ flex: '1 1 0', minWidth: 90 }}>
            <Typography variant="caption" color="text.secondary" component="p">
              {t('invite.total')}
            </Typography>
            <Typography variant="h6" component="p" data-testid="aff-total">
              {formatQuota(self.aff_history_quota ?? 0)}
            </Typography>
          </Box>
          <Box sx={{ flex: '1 1 0', minWidth: 90 }}>
            <Typography variant="caption" color="text.secondary" component="p">
              {t('invite.count')}
            </Typography>
            <Typography variant="h6" component="p" data-testid="aff-count">
              {self.aff_count ?? 0}
            </Typography>
          </Box>
        </Stack>
        <Button variant="outlined" onClick={() => setTransferOpen(true)} disabled={pending <= 0}>
          {t('invite.transfer')}
        </Button>
      </CardContent>
      {transferOpen && <TransferDialog open available={pending} onClose={() => setTransferOpen(false)} />}
    </Card>
  );
}

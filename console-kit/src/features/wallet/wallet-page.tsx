import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
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
import { useGetSelfQuery } from '../../api/gatehouse-api';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useQuotaFormat } from '../../format/use-quota-format';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import {
  useGetTopUpInfoQuery,
  useListTopUpOrdersQuery,
  usePayOnlineMutation,
  useQuoteAmountMutation,
  useRedeemCodeMutation,
  type PayMethod,
  type TopUpInfo,
} from './wallet-api';
import { WALLET_NAMESPACE, walletLocales } from './wallet-locales';
import {
  isGatewayUrl,
  minimumAmount,
  normalizeAmount,
  parsePayMethods,
  readRawAnswer,
  submitPayForm,
} from './wallet-rules';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

/** Wait after the last keystroke before asking the server for the price. */
const QUOTE_DELAY_MS = 400;

/** `/topup`, 'my wallet': balance, redeem a code, online top-up with the price shown, top-up history. */
export function WalletPage() {
  const { t } = useFeatureTranslation(WALLET_NAMESPACE, walletLocales);
  const { formatQuota } = useQuotaFormat();
  const self = useGetSelfQuery(undefined, { refetchOnMountOrArgChange: true });
  const info = useGetTopUpInfoQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>
        <Paper sx={{ p: 2 }} aria-label={t('balance.title')} role="region">
          <Typography variant="h6" component="h2" gutterBottom>
            {t('balance.title')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 4 }}>
            <Typography data-testid="wallet-balance">
              {t('balance.remaining', { value: formatQuota(self.data?.quota ?? 0) })}
            </Typography>
            <Typography>{t('balance.used', { value: formatQuota(self.data?.used_quota ?? 0) })}</Typography>
            <Typography>{t('balance.requests', { value: self.data?.request_count ?? 0 })}</Typography>
          </Stack>
        </Paper>
        <RedeemCard t={t} topUpLink={info.data?.topup_link ?? ''} onRedeemed={() => void self.refetch()} />
        {info.isError && <Alert severity="error">{describeApiError(info.error, t)}</Alert>}
        {info.data && <OnlineTopUpCard t={t} info={info.data} />}
        <HistoryCard t={t} />
      </Stack>
    </Box>
  );
}

function RedeemCard({
  t,
  topUpLink,
  onRedeemed,
}: {
  t: Translate;
  topUpLink: string;
  onRedeemed: () => void;
}) {
  const notify = useNotify();
  const { formatQuota } = useQuotaFormat();
  const [redeem] = useRedeemCodeMutation();
  const redeeming = useApiAction(t);
  const [code, setCode] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      notify(t('redeem.empty'), 'warning');
      return;
    }
    const redeemed = await redeeming.run(() => redeem(code.trim()).unwrap(), {
      success: (quota) => `${t('redeem.success')} ${t('redeem.credited', { value: formatQuota(quota) })}`,
    });
    if (redeemed) {
      setCode('');
      onRedeemed();
    }
  };

  const openTopUpLink = () => {
    if (!topUpLink) {
      notify(t('online.noTopUpLink'), 'error');
      return;
    }
    window.open(topUpLink, '_blank', 'noopener,noreferrer');
  };

  return (
    <Paper
      sx={{ p: 2 }}
      component="form"
      onSubmit={(event) => void submit(event)}
      aria-label={t('redeem.title')}
    >
      <Typography variant="h6" component="h2" gutterBottom>
        {t('redeem.title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          label={t('redeem.code')}
          placeholder={t('redeem.placeholder')}
          name="key"
          autoComplete="off"
          size="small"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          sx={{ flexGrow: 1 }}
        />
        <Button type="submit" variant="contained" disabled={redeeming.busy}>
          {t('redeem.submit')}
        </Button>
        <Button variant="outlined" onClick={openTopUpLink}>
          {t('redeem.getCode')}
        </Button>
      </Stack>
    </Paper>
  );
}

function OnlineTopUpCard({ t, info }: { t: Translate; info: TopUpInfo }) {
  const notify = useNotify();
  const [quote] = useQuoteAmountMutation();
  const [pay] = usePayOnlineMutation();
  const paying = useApiAction(t);
  const minimum = minimumAmount(info);
  const [amountText, setAmountText] = useState(String(Math.max(1, minimum)));
  const [quoted, setQuoted] = useState<{ amount: number; price: string } | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [confirming, setConfirming] = useState<PayMethod | null>(null);
  const methods = parsePayMethods(info.pay_methods);
  const amount = normalizeAmount(amountText);
  const eligible = info.enable_online_topup && amount !== null && amount >= minimum;
  const price = eligible && quoted !== null && quoted.amount === amount ? quoted.price : null;

  // The price comes from the server (its rounding, the group's top-up ratio), shortly after typing stops.
  useEffect(() => {
    if (!eligible || amount === null) {
      return;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      setQuoting(true);
      quote(amount)
        .unwrap()
        .then((answer) => {
          if (!current) return;
          const read = readRawAnswer(answer);
          if (read.ok) {
            setQuoted({ amount, price: String(read.data) });
          } else {
            // Spec: an amount query failing with a message other than success shows an error toast.
            notify(read.reason ?? t('online.requestFailed'), 'error');
          }
        })
        .catch((failure: unknown) => {
          if (current) notify(describeApiError(failure, t, t('online.requestFailed')), 'error');
        })
        .finally(() => {
          if (current) setQuoting(false);
        });
    }, QUOTE_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [amount, eligible, quote, notify, t]);

  const choose = (method: PayMethod) => {
    if (!info.enable_online_topup) {
      notify(t('online.disabled'), 'error');
      return;
    }
    if (amount === null) {
      notify(t('online.amountInvalid'), 'error');
      return;
    }
    if (amount < minimum) {
      notify(t('online.belowMinimum', { value: minimum }), 'error');
      return;
    }
    setAmountText(String(amount));
    setConfirming(method);
  };

  const submitPayment = async () => {
    const method = confirming;
    setConfirming(null);
    if (!method || amount === null) return;
    await paying.run(
      async () => {
        const answer = await pay({ amount, payment_method: method.type }).unwrap();
        const read = readRawAnswer(answer);
        if (!read.ok) {
          notify(read.reason ?? t('online.requestFailed'), 'error');
          return;
        }
        if (!isGatewayUrl(read.url) || typeof read.data !== 'object' || read.data === null) {
          notify(t('online.requestFailed'), 'error');
          return;
        }
        submitPayForm(read.url, read.data as Record<string, unknown>);
        notify(t('online.opened'), 'info');
      },
      { fallback: t('online.requestFailed') },
    );
  };

  return (
    <Paper sx={{ p: 2 }} role="region" aria-label={t('online.title')}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('online.title')}
      </Typography>
      {!info.enable_online_topup ? (
        <Alert severity="info">{t('online.disabled')}</Alert>
      ) : methods === null ? (
        <Alert severity="error">{t('online.payMethodsError')}</Alert>
      ) : (
        <Stack spacing={2}>
          <TextField
            label={`${t('online.amount')} (${info.display_in_currency ? t('online.amountUnitCurrency') : t('online.amountUnitQuota')})`}
            name="amount"
            inputMode="numeric"
            size="small"
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            onBlur={() => {
              if (amount !== null) setAmountText(String(amount));
            }}
            helperText={t('online.minimum', { value: minimum })}
            sx={{ maxWidth: { sm: 320 } }}
          />
          <Typography data-testid="topup-price" aria-live="polite">
            {eligible && quoting
              ? t('online.priceLoading')
              : price !== null
                ? t('online.price', { value: price })
                : ' '}
          </Typography>
          <Typography variant="subtitle2">{t('online.payWith')}</Typography>
          {methods.length === 0 ? (
            <Alert severity="error">{t('online.payMethodsError')}</Alert>
          ) : (
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
              {methods.map((method) => (
                <Button
                  key={method.type}
                  variant="contained"
                  disabled={paying.busy}
                  onClick={() => choose(method)}
                  sx={
                    method.color && /^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(method.color)
                      ? { bgcolor: method.color }
                      : undefined
                  }
                >
                  {method.name}
                </Button>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)}>
        <DialogTitle>{t('online.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('online.confirmAmount', { value: amount ?? '' })}</DialogContentText>
          {price !== null && (
            <DialogContentText>{t('online.confirmPrice', { value: price })}</DialogContentText>
          )}
          <DialogContentText>{confirming?.name}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(null)}>{t('online.cancel')}</Button>
          <Button variant="contained" onClick={() => void submitPayment()} autoFocus>
            {t('online.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

function HistoryCard({ t }: { t: Translate }) {
  const { formatQuota } = useQuotaFormat();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const orders = useListTopUpOrdersQuery({ page, pageSize }, { refetchOnMountOrArgChange: true });
  const items = orders.data?.items ?? [];
  return (
    <Paper role="region" aria-label={t('history.title')}>
      <Typography variant="h6" component="h2" sx={{ p: 2, pb: 0 }}>
        {t('history.title')}
      </Typography>
      {orders.isFetching && <LinearProgress />}
      {orders.isError && <Alert severity="error">{describeApiError(orders.error, t)}</Alert>}
      <TableContainer>
        <Table size="small" aria-label={t('history.title')} sx={{ '& th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('history.tradeNo')}</TableCell>
              <TableCell>{t('history.amount')}</TableCell>
              <TableCell>{t('history.money')}</TableCell>
              <TableCell>{t('history.method')}</TableCell>
              <TableCell>{t('history.created')}</TableCell>
              <TableCell>{t('history.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((order) => (
              <TableRow key={order.id}>
                <TableCell sx={{ fontFamily: 'monospace' }}>{order.trade_no}</TableCell>
                <TableCell>{formatQuota(order.amount)}</TableCell>
                <TableCell>{order.money}</TableCell>
                <TableCell>{order.payment_method}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {dayjs(order.create_time * 1000).format('YYYY-MM-DD HH:mm:ss')}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={order.status === 'success' ? 'success' : 'warning'}
                    label={order.status === 'success' ? t('history.success') : t('history.pending')}
                  />
                </TableCell>
              </TableRow>
            ))}
            {!orders.isFetching && items.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} align="center">
                  {t('history.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={orders.data?.total ?? 0}
        page={Math.max(0, page - 1)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[10, 20, 50, 100]}
        onPageChange={(_event, next) => setPage(next + 1)}
        onRowsPerPageChange={(event) => {
          setPageSize(Number(event.target.value));
          setPage(1);
        }}
        labelRowsPerPage={t('pagination.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) => t('pagination.displayed', { from, to, count })}
      />
    </Paper>
  );
}

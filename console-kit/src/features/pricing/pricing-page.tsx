import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useCopyText } from '../../provider/clipboard';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { groupDescription } from '../../format/group-description';
import { useSession } from '../../provider/use-session';
import { useSystemStatus } from '../../provider/use-system-status';
import { useGetPricingQuery } from './pricing-api';
import { PRICING_NAMESPACE, pricingLocales } from './pricing-locales';
import {
  completionPricePer1M,
  formatPrice,
  formatRatio,
  initialGroup,
  isAvailable,
  perCallPrice,
  promptPricePer1M,
  ratioOf,
  switchableGroups,
  visibleModels,
  type Currency,
  type PricingModel,
  type TopUpPricing,
} from './pricing-rules';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

const numberOr = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;

/** Public page `/pricing`: every model the gateway serves with its price for the viewed group. */
export function PricingPage() {
  const { t } = useFeatureTranslation(PRICING_NAMESPACE, pricingLocales);
  const { user } = useSession();
  const { status } = useSystemStatus();
  const notify = useNotify();
  const copy = useCopyText();
  const pricing = useGetPricingQuery();
  const [search, setSearch] = useState('');
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [showRatio, setShowRatio] = useState(false);
  const [topUpMode, setTopUpMode] = useState(false);
  const [currency, setCurrency] = useState<Currency>('USD');

  const data = pricing.data;
  const usableGroup = useMemo(() => data?.usableGroup ?? {}, [data]);
  const groupRatio = useMemo(() => data?.groupRatio ?? {}, [data]);
  const ownGroup = initialGroup(user?.group, usableGroup);
  const group = chosenGroup ?? ownGroup;
  const ratio = ratioOf(groupRatio, group);
  const rows = useMemo(() => visibleModels(data?.models ?? [], search, group), [data, search, group]);

  const onlineTopUp = Boolean(status?.enable_online_topup);
  const topUp: (TopUpPricing & { currency: Currency }) | null =
    onlineTopUp && topUpMode
      ? {
          price: numberOr(status?.price, 1),
          usdExchangeRate: numberOr(status?.usd_exchange_rate, 7.3),
          currency,
        }
      : null;

  const switchGroup = (next: string) => {
    setChosenGroup(next);
    notify(t('switched', { group: next, ratio: ratioOf(groupRatio, next) }), 'info');
  };

  const toggle = (name: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(name)) {
        next.delete(name);
      } else {
        next.add(name);
      }
      return next;
    });

  const shownNames = rows.map((row) => row.model_name);
  const allShownSelected = shownNames.length > 0 && shownNames.every((name) => selected.has(name));
  const someShownSelected = shownNames.some((name) => selected.has(name));
  const toggleAll = () =>
    setSelected((current) => {
      const next = new Set(current);
      for (const name of shownNames) {
        if (allShownSelected) {
          next.delete(name);
        } else {
          next.add(name);
        }
      }
      return next;
    });

  const copySelected = () => {
    const names = (data?.models ?? []).map((m) => m.model_name).filter((name) => selected.has(name));
    void copy(names.join(','), t('copiedSelected', { count: names.length }));
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('title')}
        </Typography>

        {user ? (
          <Alert severity="info" data-testid="pricing-banner">
            {t('banner.user', { group: ownGroup, ratio: ratioOf(groupRatio, ownGroup) })}
          </Alert>
        ) : (
          <Alert severity="warning" data-testid="pricing-banner">
            {t('banner.visitor', { ratio: ratioOf(groupRatio, 'default') })}
          </Alert>
        )}
        {group !== ownGroup && (
          <Alert severity="info" data-testid="pricing-viewing">
            {t('banner.viewing', { group, ratio })}
          </Alert>
        )}

        <Paper sx={{ p: 2 }}>
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}
          >
            <TextField
              label={t('search')}
              type="search"
              size="small"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              sx={{ flexGrow: 1, minWidth: { md: 240 } }}
            />
            <Button variant="outlined" disabled={selected.size === 0} onClick={copySelected}>
              {t('copySelected')}
            </Button>
            <FormControlLabel
              control={
                <Switch checked={showRatio} onChange={(event) => setShowRatio(event.target.checked)} />
              }
              label={t('showRatio')}
            />
            {onlineTopUp && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <FormControlLabel
                  control={
                    <Switch checked={topUpMode} onChange={(event) => setTopUpMode(event.target.checked)} />
                  }
                  label={t('topUpPrice')}
                />
                {topUpMode && (
                  <TextField
                    select
                    size="small"
                    label={t('currency')}
                    value={currency}
                    onChange={(event) => setCurrency(event.target.value as Currency)}
                    sx={{ minWidth: 100 }}
                  >
                    <MenuItem value="USD">USD</MenuItem>
                    <MenuItem value="CNY">CNY</MenuItem>
                  </TextField>
                )}
              </Stack>
            )}
          </Stack>
        </Paper>

        {showRatio && (
          <Alert severity="info" data-testid="pricing-formula">
            {t('formula')}
          </Alert>
        )}
        {pricing.isError && (
          <Alert severity="error">{describeApiError(pricing.error, t, t('loadFailed'))}</Alert>
        )}

        <Paper>
          {pricing.isFetching && <LinearProgress />}
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={t('title')}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={allShownSelected}
                      indeterminate={someShownSelected && !allShownSelected}
                      onChange={toggleAll}
                      slotProps={{ input: { 'aria-label': t('columns.selectAll') } }}
                    />
                  </TableCell>
                  <TableCell>{t('columns.available')}</TableCell>
                  <TableCell>{t('columns.model')}</TableCell>
                  <TableCell>{t('columns.billing')}</TableCell>
                  <TableCell>{t('columns.groups')}</TableCell>
                  {showRatio && <TableCell>{t('columns.ratio')}</TableCell>}
                  <TableCell>{t('columns.price')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((model) => (
                  <PricingRow
                    key={model.model_name}
                    model={model}
                    group={group}
                    groupRatio={ratio}
                    ratios={groupRatio}
                    usableGroup={usableGroup}
                    selected={selected.has(model.model_name)}
                    showRatio={showRatio}
                    topUp={topUp}
                    t={t}
                    onToggle={() => toggle(model.model_name)}
                    onCopy={() => void copy(model.model_name, t('copiedName', { name: model.model_name }))}
                    onGroup={switchGroup}
                  />
                ))}
                {!pricing.isFetching && rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={showRatio ? 7 : 6} align="center">
                      {t('empty')}
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <Typography variant="body2" color="text.secondary" sx={{ p: 1.5 }}>
            {t('count', { count: rows.length })}
          </Typography>
        </Paper>
      </Stack>
    </Box>
  );
}

interface PricingRowProps {
  model: PricingModel;
  group: string;
  groupRatio: number;
  ratios: Record<string, number>;
  usableGroup: Record<string, string>;
  selected: boolean;
  showRatio: boolean;
  topUp: (TopUpPricing & { currency: Currency }) | null;
  t: Translate;
  onToggle: () => void;
  onCopy: () => void;
  onGroup: (group: string) => void;
}

function PricingRow({
  model,
  group,
  groupRatio,
  ratios,
  usableGroup,
  selected,
  showRatio,
  topUp,
  t,
  onToggle,
  onCopy,
  onGroup,
}: PricingRowProps) {
  const available = isAvailable(model, group);
  const perCall = model.quota_type === 1;
  return (
    <TableRow hover selected={selected} data-testid={`pricing-row-${model.model_name}`}>
      <TableCell padding="checkbox">
        <Checkbox
          checked={selected}
          onChange={onToggle}
          slotProps={{ input: { 'aria-label': `${t('columns.select')} ${model.model_name}` } }}
        />
      </TableCell>
      <TableCell>
        <Tooltip title={available ? t('available') : t('unavailable')}>
          <Box
            component="span"
            role="img"
            aria-label={available ? t('available') : t('unavailable')}
            data-available={available}
            sx={{ color: available ? 'success.main' : 'text.disabled', fontWeight: 700 }}
          >
            {available ? '✓' : '✕'}
          </Box>
        </Tooltip>
      </TableCell>
      <TableCell>
        <Button
          size="small"
          onClick={onCopy}
          sx={{ textTransform: 'none', fontFamily: 'monospace', p: 0, minWidth: 0, textAlign: 'left' }}
        >
          {model.model_name}
        </Button>
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          color={perCall ? 'secondary' : 'primary'}
          variant="outlined"
          label={perCall ? t('billing.call') : t('billing.usage')}
        />
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
          {switchableGroups(model, usableGroup).map((name) => (
            <Tooltip key={name} title={groupDescription(name, usableGroup[name], t) || name}>
              <Chip
                size="small"
                label={name}
                color={name === group ? 'primary' : 'default'}
                variant={name === group ? 'filled' : 'outlined'}
                onClick={() => onGroup(name)}
                aria-label={t('groupChip', { group: name, ratio: ratioOf(ratios, name) })}
              />
            </Tooltip>
          ))}
        </Stack>
      </TableCell>
      {showRatio && (
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <Typography variant="body2">
            {t('ratio.model', { value: perCall ? '-' : model.model_ratio })}
          </Typography>
          <Typography variant="body2">
            {t('ratio.completion', { value: perCall ? '-' : formatRatio(model.completion_ratio) })}
          </Typography>
          <Typography variant="body2">{t('ratio.group', { value: groupRatio })}</Typography>
        </TableCell>
      )}
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {perCall ? (
          <Typography variant="body2">
            {t('price.call', { price: formatPrice(perCallPrice(model, groupRatio), topUp) })}
          </Typography>
        ) : (
          <>
            <Typography variant="body2">
              {t('price.prompt', { price: formatPrice(promptPricePer1M(model, groupRatio), topUp) })}
            </Typography>
            <Typography variant="body2">
              {t('price.completion', { price: formatPrice(completionPricePer1M(model, groupRatio), topUp) })}
            </Typography>
          </>
        )}
      </TableCell>
    </TableRow>
  );
}

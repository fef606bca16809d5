import { useState, type KeyboardEvent } from 'react';
import { Chip, Stack, TextField, Tooltip } from '@mui/material';
import { type useFeatureTranslation } from '../../provider/console-i18n';
import {
  channelStatusName,
  formatTimestamp,
  parseStatusInfo,
  RESPONSE_TIME_COLORS,
  responseTimeTone,
  splitList,
} from './channel-rules';

type Translate = ReturnType<typeof useFeatureTranslation>['t'];

const STATUS_COLORS = {
  enabled: 'success',
  disabled: 'default',
  autoDisabled: 'warning',
  unknown: 'default',
} as const;

/** Priority or weight edited in place: saved on Enter or when the field loses focus, if changed. */
export function InlineNumber({
  value,
  label,
  onSave,
}: {
  value: number | null;
  label: string;
  onSave: (text: string) => Promise<boolean>;
}) {
  const initial = value === null ? '' : String(value);
  const [text, setText] = useState(initial);
  const [seen, setSeen] = useState(initial);
  if (seen !== initial) {
    // The row was refetched: show the stored value.
    setSeen(initial);
    setText(initial);
  }
  const commit = async () => {
    if (text.trim() === initial || text.trim() === '') {
      setText(initial);
      return;
    }
    if (!(await onSave(text))) setText(initial);
  };
  return (
    <TextField
      size="small"
      type="number"
      value={text}
      placeholder={value === null ? '—' : undefined}
      onChange={(event) => setText(event.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter') (event.target as HTMLInputElement).blur();
      }}
      slotProps={{ htmlInput: { 'aria-label': label, style: { width: 48 } } }}
    />
  );
}

export function StatusChip({
  status,
  otherInfo,
  t,
}: {
  status: number;
  otherInfo: string | null;
  t: Translate;
}) {
  const name = channelStatusName(status);
  const chip = <Chip size="small" color={STATUS_COLORS[name]} label={t(`status.${name}`)} />;
  const info = name === 'autoDisabled' ? parseStatusInfo(otherInfo) : null;
  if (!info) return chip;
  return (
    <Tooltip
      title={
        <>
          {info.reason && <div>{t('status.reason', { reason: info.reason })}</div>}
          {info.time > 0 && <div>{t('status.time', { time: formatTimestamp(info.time) })}</div>}
        </>
      }
    >
      {chip}
    </Tooltip>
  );
}

export function ResponseTime({
  milliseconds,
  testTime,
  t,
  onClick,
}: {
  milliseconds: number;
  testTime: number;
  t: Translate;
  onClick?: () => void;
}) {
  const tone = responseTimeTone(milliseconds);
  const label =
    tone === 'untested'
      ? t('responseTime.untested')
      : t('responseTime.seconds', { value: (milliseconds / 1000).toFixed(2) });
  return (
    <Tooltip title={testTime ? formatTimestamp(testTime) : ''}>
      <Chip
        size="small"
        variant="outlined"
        label={label}
        onClick={onClick}
        data-tone={tone}
        sx={{ color: RESPONSE_TIME_COLORS[tone], borderColor: RESPONSE_TIME_COLORS[tone] }}
      />
    </Tooltip>
  );
}

export function GroupChips({ groups }: { groups: string }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {splitList(groups).map((group) => (
        <Chip key={group} size="small" label={group} />
      ))}
    </Stack>
  );
}

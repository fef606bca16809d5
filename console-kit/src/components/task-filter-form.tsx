import type { FormEvent } from 'react';
import { Box, Button, Paper, Stack, TextField } from '@mui/material';
import type { Dayjs } from 'dayjs';
import { DateTimeRange, PickersProvider } from './date-time-range';
import { isValidChannelFilter } from '../lib/log-filters';

/** Translates a key of the page's own namespace (each task page has the same `filters.*` keys). */
type Translate = (key: string) => string;

export interface TaskFilterFormProps {
  t: Translate;
  language: string;
  /** Admins also filter by channel id. */
  admin: boolean;
  channelId: string;
  onChannelId: (value: string) => void;
  /** The page's own task id field. */
  idField: { label: string; name: string; value: string; onChange: (value: string) => void };
  start: Dayjs | null;
  end: Dayjs | null;
  onStart: (value: Dayjs | null) => void;
  onEnd: (value: Dayjs | null) => void;
  onSubmit: (event: FormEvent) => void;
  onReset: () => void;
}

/** The search form of the drawing log and the task log: channel (admins), task id, time range. */
export function TaskFilterForm(props: TaskFilterFormProps) {
  const { t, admin, channelId, idField } = props;
  const channelInvalid = !isValidChannelFilter(channelId);
  return (
    <Paper component="form" role="search" onSubmit={props.onSubmit} sx={{ p: 2 }}>
      <PickersProvider language={props.language}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
          {admin && (
            <TextField
              label={t('filters.channelId')}
              name="channel_id"
              size="small"
              value={channelId}
              error={channelInvalid}
              helperText={channelInvalid ? t('filters.invalidChannel') : undefined}
              onChange={(event) => props.onChannelId(event.target.value)}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
          )}
          <TextField
            label={idField.label}
            name={idField.name}
            size="small"
            value={idField.value}
            onChange={(event) => idField.onChange(event.target.value)}
          />
          <Box sx={{ width: { xs: '100%', sm: 'auto' } }}>
            <DateTimeRange
              start={props.start}
              end={props.end}
              onStart={props.onStart}
              onEnd={props.onEnd}
              startLabel={t('filters.start')}
              endLabel={t('filters.end')}
              rangeLabel={t('filters.range')}
            />
          </Box>
          <Button type="submit" variant="contained" disabled={channelInvalid}>
            {t('filters.query')}
          </Button>
          <Button variant="outlined" onClick={props.onReset}>
            {t('filters.reset')}
          </Button>
        </Stack>
      </PickersProvider>
    </Paper>
  );
}

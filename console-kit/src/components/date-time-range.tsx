import type { ReactNode } from 'react';
import { Box, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DesktopDateTimePicker } from '@mui/x-date-pickers/DesktopDateTimePicker';
import { MobileDateTimePicker } from '@mui/x-date-pickers/MobileDateTimePicker';
import { enUS, zhCN } from '@mui/x-date-pickers/locales';
import type { Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';

/** Date pickers speaking the console's language (zh or en). */
export function PickersProvider({ language, children }: { language: string; children: ReactNode }) {
  const zh = language.startsWith('zh');
  const localeText = (zh ? zhCN : enUS).components.MuiLocalizationProvider.defaultProps.localeText;
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={zh ? 'zh-cn' : 'en'}
      localeText={localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

export interface DateTimeRangeProps {
  start: Dayjs | null;
  end: Dayjs | null;
  onStart: (value: Dayjs | null) => void;
  onEnd: (value: Dayjs | null) => void;
  startLabel: string;
  endLabel: string;
  rangeLabel: string;
  format?: string;
}

/**
 * Start and end time: on desktop one range control (both ends in one group), on mobile two separate
 * pickers stacked, each opening a full-screen dialog (spec: two pickers on mobile).
 */
export function DateTimeRange(props: DateTimeRangeProps) {
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'));
  const format = props.format ?? 'YYYY-MM-DD HH:mm:ss';
  const slotProps = (label: string, testId: string) => ({
    textField: { size: 'small' as const, fullWidth: mobile, name: testId },
    actionBar: { actions: ['clear' as const, 'cancel' as const, 'accept' as const] },
    field: { clearable: true },
    openPickerButton: { 'aria-label': label },
  });
  if (mobile) {
    return (
      <Stack spacing={2} data-testid="range-mobile">
        <MobileDateTimePicker
          label={props.startLabel}
          value={props.start}
          onAccept={props.onStart}
          onChange={props.onStart}
          format={format}
          ampm={false}
          slotProps={slotProps(props.startLabel, 'range-start')}
        />
        <MobileDateTimePicker
          label={props.endLabel}
          value={props.end}
          onAccept={props.onEnd}
          onChange={props.onEnd}
          format={format}
          ampm={false}
          slotProps={slotProps(props.endLabel, 'range-end')}
        />
      </Stack>
    );
  }
  return (
    <Box
      role="group"
      aria-label={props.rangeLabel}
      data-testid="range-desktop"
      sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'nowrap' }}
    >
      <DesktopDateTimePicker
        label={props.startLabel}
        value={props.start}
        onChange={props.onStart}
        format={format}
        ampm={false}
        slotProps={slotProps(props.startLabel, 'range-start')}
        sx={{ minWidth: 210 }}
      />
      <Typography color="text.secondary" aria-hidden>
        ~
      </Typography>
      <DesktopDateTimePicker
        label={props.endLabel}
        value={props.end}
        onChange={props.onEnd}
        format={format}
        ampm={false}
        slotProps={slotProps(props.endLabel, 'range-end')}
        sx={{ minWidth: 210 }}
      />
    </Box>
  );
}

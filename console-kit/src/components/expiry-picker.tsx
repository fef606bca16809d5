import { useMemo } from 'react';
import { Button, Stack } from '@mui/material';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useTranslation } from 'react-i18next';

/** The expiry text format of the drawers (docs/decisions.md#expiry-format). */
export const EXPIRY_TEXT_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** What the text becomes while the picker holds a date it cannot read (the drawer then refuses it). */
export const INVALID_EXPIRY_TEXT = 'invalid';

export interface ExpiryPickerPreset {
  id: string;
  label: string;
  /** The expiry text the preset stands for ('' for never). */
  text: () => string;
}

export interface ExpiryPickerProps {
  label: string;
  helperText?: string;
  /** The form field's name. */
  name: string;
  /** `YYYY-MM-DD HH:mm:ss`, or '' for never. */
  value: string;
  onChange: (text: string) => void;
  presets?: readonly ExpiryPickerPreset[];
}

/**
 * A clearable date-time picker over an expiry text ('' = never), with preset buttons below it
 * ("never", "one month", ...). Shared by the token and redemption drawers.
 */
export function ExpiryPicker({ label, helperText, name, value, onChange, presets = [] }: ExpiryPickerProps) {
  const { i18n } = useTranslation();
  const pickerValue = useMemo<Dayjs | null>(() => {
    if (value === '') return null;
    const parsed = dayjs(value.replace(' ', 'T'));
    return parsed.isValid() ? parsed : null;
  }, [value]);
  return (
    <>
      <LocalizationProvider
        dateAdapter={AdapterDayjs}
        adapterLocale={i18n.language?.startsWith('zh') ? 'zh-cn' : 'en'}
      >
        <DateTimePicker
          label={label}
          value={pickerValue}
          format={EXPIRY_TEXT_FORMAT}
          ampm={false}
          views={['year', 'month', 'day', 'hours', 'minutes', 'seconds']}
          onChange={(next) =>
            onChange(
              next === null ? '' : next.isValid() ? next.format(EXPIRY_TEXT_FORMAT) : INVALID_EXPIRY_TEXT,
            )
          }
          slotProps={{
            textField: { helperText, fullWidth: true, name },
            field: { clearable: true },
          }}
        />
      </LocalizationProvider>
      {presets.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {presets.map((preset) => (
            <Button key={preset.id} size="small" variant="outlined" onClick={() => onChange(preset.text())}>
              {preset.label}
            </Button>
          ))}
        </Stack>
      )}
    </>
  );
}

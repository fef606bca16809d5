import { useState } from 'react';
import { TextField } from '@mui/material';
import { useFeatureTranslation, type LocaleBundles } from '../../provider/console-i18n';
import {
  FIRST_BYTE_MAX,
  firstByteProblem,
  readFirstByteTimeout,
  writeFirstByteTimeout,
} from './first-byte-timeout';

export const firstByteLocales = {
  zh: {
    label: '首字超时（秒）',
    help: '上游在这段时间内没有开始回答时改用下一个渠道（重试次数需大于 0）；留空或 0 表示只用全局超时',
    notNumber: '请输入不小于 0 的秒数',
    tooLong: '不能大于 {{max}} 秒',
    settingInvalid: '渠道额外设置不是合法的 JSON 对象，请先修正',
  },
  en: {
    label: 'First-byte timeout (seconds)',
    help: 'An upstream that has not started its answer within this time is left for the next channel (retry times must be above 0); empty or 0: only the global timeouts',
    notNumber: 'Enter a number of seconds, at least 0',
    tooLong: 'Must be at most {{max}} seconds',
    settingInvalid: 'The extra channel settings are not a valid JSON object; fix them first',
  },
} satisfies LocaleBundles;

/** The problem of the text typed, as the message the form shows and refuses to save with. */
export function useFirstByteMessage() {
  const { t } = useFeatureTranslation('channelFirstByte', firstByteLocales);
  return (text: string): string | null => {
    const problem = firstByteProblem(text);
    return problem ? t(problem, { max: FIRST_BYTE_MAX }) : null;
  };
}

/**
 * The channel's first-byte timeout, edited as a number and kept in the extra settings JSON
 * (`setting`); `onProblem` hears the message while the text cannot be saved.
 */
export function FirstByteTimeoutField({
  setting,
  onChange,
  onProblem,
}: {
  setting: string;
  onChange: (setting: string) => void;
  onProblem: (message: string | null) => void;
}) {
  const { t } = useFeatureTranslation('channelFirstByte', firstByteLocales);
  const messageOf = useFirstByteMessage();
  const stored = readFirstByteTimeout(setting);
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? stored ?? '';
  const problem = draft === null ? null : messageOf(draft);

  return (
    <TextField
      size="small"
      fullWidth
      name="first_byte_timeout"
      label={t('label')}
      value={text}
      disabled={stored === null}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        const message = messageOf(next);
        onProblem(message);
        if (message === null) onChange(writeFirstByteTimeout(setting, next));
      }}
      onBlur={() => {
        if (draft !== null && messageOf(draft) === null) setDraft(null);
      }}
      error={problem !== null}
      helperText={problem ?? (stored === null ? t('settingInvalid') : t('help'))}
      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
    />
  );
}

import { Alert, FormControlLabel, FormHelperText, Stack, Switch } from '@mui/material';
import { gatehouseApi } from '../api/gatehouse-api';
import { describeApiError } from '../api/describe-api-error';
import { useFeatureTranslation, type LocaleBundles } from '../provider/console-i18n';

export const contentSwitchLocales = {
  zh: {
    label: '记录请求内容',
    helpToken: '保存此令牌调用的请求与响应正文（已脱敏，受大小上限和保留天数限制），可在日志中查看',
    helpUser: '保存此用户所有调用的请求与响应正文（已脱敏，受大小上限和保留天数限制），可在日志中查看',
    helpChannel: '保存此渠道处理的调用的请求与响应正文（已脱敏，受大小上限和保留天数限制），可在日志中查看',
    settingInvalid: '渠道额外设置不是合法的 JSON 对象，请先修正',
    loadFailed: '读取内容记录开关失败',
  },
  en: {
    label: 'Store request content',
    helpToken:
      'Keep the request and response bodies of this token’s calls (redacted, capped, kept for the retention period), viewable from the logs',
    helpUser:
      'Keep the request and response bodies of all this user’s calls (redacted, capped, kept for the retention period), viewable from the logs',
    helpChannel:
      'Keep the request and response bodies of the calls this channel serves (redacted, capped, kept for the retention period), viewable from the logs',
    settingInvalid: 'The extra channel settings are not a valid JSON object; fix them first',
    loadFailed: 'Failed to read the content-logging switch',
  },
} satisfies LocaleBundles;

const NAMESPACE = 'contentLogSwitch';

export type ContentScope = 'token' | 'user';

const switchApi = gatehouseApi.enhanceEndpoints({ addTagTypes: ['ContentLogSwitch'] }).injectEndpoints({
  endpoints: (builder) => ({
    contentLogSwitch: builder.query<{ enabled: boolean }, { scope: ContentScope; id: number }>({
      query: ({ scope, id }) => `/api/content_log/${scope}/${id}`,
      providesTags: (_r, _e, { scope, id }) => [{ type: 'ContentLogSwitch', id: `${scope}-${id}` }],
    }),
    setContentLogSwitch: builder.mutation<
      { enabled: boolean },
      { scope: ContentScope; id: number; enabled: boolean }
    >({
      query: ({ scope, id, enabled }) => ({
        url: `/api/content_log/${scope}/${id}`,
        method: 'PUT',
        body: { enabled },
      }),
      invalidatesTags: (_r, _e, { scope, id }) => [{ type: 'ContentLogSwitch', id: `${scope}-${id}` }],
    }),
  }),
});

export const { useContentLogSwitchQuery, useSetContentLogSwitchMutation } = switchApi;

/** An admin's switch of content logging for one token or one user (saved at once). */
export function ContentLogSwitch({ scope, id }: { scope: ContentScope; id: number }) {
  const { t } = useFeatureTranslation(NAMESPACE, contentSwitchLocales);
  const state = useContentLogSwitchQuery({ scope, id });
  const [save, saving] = useSetContentLogSwitchMutation();
  const error = state.error ?? saving.error;
  return (
    <Stack spacing={0.5}>
      <FormControlLabel
        control={
          <Switch
            name="content_log"
            checked={state.data?.enabled ?? false}
            disabled={state.isLoading || saving.isLoading || state.isError}
            onChange={(event) => void save({ scope, id, enabled: event.target.checked })}
          />
        }
        label={t('label')}
      />
      <FormHelperText sx={{ mt: 0 }}>{t(scope === 'token' ? 'helpToken' : 'helpUser')}</FormHelperText>
      {error && <Alert severity="warning">{describeApiError(error, t, t('loadFailed'))}</Alert>}
    </Stack>
  );
}

/** The `content_log` flag of a channel's extra settings JSON; null when the text is not a JSON object. */
export function readChannelContentLog(setting: string): boolean | null {
  if (!setting.trim()) return false;
  try {
    const parsed: unknown = JSON.parse(setting);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return (parsed as Record<string, unknown>).content_log === true;
  } catch {
    return null;
  }
}

/** The settings JSON with `content_log` set (or removed when off); other keys kept. */
export function writeChannelContentLog(setting: string, on: boolean): string {
  const parsed = setting.trim() ? (JSON.parse(setting) as Record<string, unknown>) : {};
  const next: Record<string, unknown> = { ...parsed };
  if (on) next.content_log = true;
  else delete next.content_log;
  return Object.keys(next).length ? JSON.stringify(next) : '';
}

/** The channel editor's switch, kept in the extra settings JSON (`setting.content_log`). */
export function ChannelContentLogSwitch({
  setting,
  onChange,
}: {
  setting: string;
  onChange: (setting: string) => void;
}) {
  const { t } = useFeatureTranslation(NAMESPACE, contentSwitchLocales);
  const on = readChannelContentLog(setting);
  return (
    <Stack spacing={0.5}>
      <FormControlLabel
        control={
          <Switch
            name="content_log"
            checked={on === true}
            disabled={on === null}
            onChange={(event) => onChange(writeChannelContentLog(setting, event.target.checked))}
          />
        }
        label={t('label')}
      />
      <FormHelperText sx={{ mt: 0 }}>{on === null ? t('settingInvalid') : t('helpChannel')}</FormHelperText>
    </Stack>
  );
}

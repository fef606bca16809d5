import { Alert, Button, Stack } from '@mui/material';
import type { TFunction } from 'i18next';
import { useGetStatusQuery } from '../../api/gatehouse-api';
import { useNotify } from '../../provider/console-context';
import { EmailDomainEditor, WHITELIST_KEY } from './email-domain-editor';
import { checkJsonText } from './json-text';
import { OptionsPanel, type FieldSpec, type PanelContext } from './options-panel';
import type { OptionValues } from './options-api';
import { useSettingsTranslation } from './settings-locales';

const SERVER: FieldSpec[] = [{ key: 'ServerAddress', kind: 'url' }];

const WORKER: FieldSpec[] = [
  { key: 'WorkerUrl', kind: 'url' },
  { key: 'WorkerValidKey', kind: 'secret' },
];

const PAYMENT: FieldSpec[] = [
  { key: 'PayAddress', kind: 'url' },
  { key: 'EpayId', kind: 'text' },
  { key: 'EpayKey', kind: 'secret' },
  { key: 'Price', kind: 'float', min: 0 },
  { key: 'MinTopUp', kind: 'int', min: 0 },
  { key: 'CustomCallbackAddress', kind: 'url' },
  {
    key: 'TopupGroupRatio',
    kind: 'json',
    validate: (value, { t }) =>
      checkJsonText(value, 'number-map') ? t('validation.topupRatioNotJson') : null,
  },
  {
    key: 'PayMethods',
    kind: 'json',
    validate: (value, { t }) => (checkJsonText(value, 'array') ? t('validation.payMethodsNotJson') : null),
  },
];

const LOGIN: FieldSpec[] = [
  { key: 'PasswordLoginEnabled', kind: 'bool', confirmOff: true },
  { key: 'PasswordRegisterEnabled', kind: 'bool' },
  { key: 'EmailVerificationEnabled', kind: 'bool' },
  { key: 'RegisterEnabled', kind: 'bool' },
  { key: 'GitHubOAuthEnabled', kind: 'bool' },
  { key: 'oidc.enabled', kind: 'bool' },
  { key: 'LinuxDOOAuthEnabled', kind: 'bool' },
  { key: 'WeChatAuthEnabled', kind: 'bool' },
  { key: 'TelegramOAuthEnabled', kind: 'bool' },
  { key: 'TurnstileCheckEnabled', kind: 'bool' },
];

const EMAIL_DOMAIN: FieldSpec[] = [
  { key: 'EmailDomainRestrictionEnabled', kind: 'bool' },
  { key: 'EmailAliasRestrictionEnabled', kind: 'bool' },
  { key: WHITELIST_KEY, kind: 'custom', render: (ctx) => <EmailDomainEditor ctx={ctx} /> },
];

const SMTP: FieldSpec[] = [
  { key: 'SMTPSSLEnabled', kind: 'bool' },
  { key: 'SMTPServer', kind: 'text' },
  { key: 'SMTPPort', kind: 'int', min: 1, max: 65535 },
  { key: 'SMTPAccount', kind: 'text' },
  { key: 'SMTPFrom', kind: 'text' },
  { key: 'SMTPToken', kind: 'secret' },
];

export const WELL_KNOWN = 'oidc.well_known';
const wellKnownProblem = (value: string, t: TFunction): string | null =>
  value.trim() !== '' && !/^https?:\/\//i.test(value.trim()) ? t('validation.wellKnownInvalid') : null;

const OIDC: FieldSpec[] = [
  { key: WELL_KNOWN, kind: 'url', wide: true, validate: (value, { t }) => wellKnownProblem(value, t) },
  { key: 'oidc.client_id', kind: 'text' },
  { key: 'oidc.client_secret', kind: 'secret' },
  { key: 'oidc.authorization_endpoint', kind: 'url' },
  { key: 'oidc.token_endpoint', kind: 'url' },
  { key: 'oidc.user_info_endpoint', kind: 'url' },
];

const GITHUB: FieldSpec[] = [
  { key: 'GitHubClientId', kind: 'text' },
  { key: 'GitHubClientSecret', kind: 'secret' },
];

const LINUXDO: FieldSpec[] = [
  { key: 'LinuxDOClientId', kind: 'text' },
  { key: 'LinuxDOClientSecret', kind: 'secret' },
];

const WECHAT: FieldSpec[] = [
  { key: 'WeChatServerAddress', kind: 'url' },
  { key: 'WeChatServerToken', kind: 'secret' },
  { key: 'WeChatAccountQRCodeImageURL', kind: 'url' },
];

const TELEGRAM: FieldSpec[] = [
  { key: 'TelegramBotName', kind: 'text' },
  { key: 'TelegramBotToken', kind: 'secret' },
];

const TURNSTILE: FieldSpec[] = [
  { key: 'TurnstileSiteKey', kind: 'text' },
  { key: 'TurnstileSecretKey', kind: 'secret' },
];

export interface OidcEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  user_info_endpoint: string;
}

/**
 * Reads an OIDC discovery document. The server offers no call for this, so the browser fetches it
 * directly (docs/decisions.md#oidc-discovery); the provider must allow cross-origin reads, as discovery documents do.
 */
export async function fetchOidcEndpoints(url: string, fetcher: typeof fetch = fetch): Promise<OidcEndpoints> {
  const response = await fetcher(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(`HTTP ${response.status}`);
  }
  const document = (await response.json()) as Record<string, unknown>;
  const text = (key: string) => (typeof document[key] === 'string' ? document[key] : '');
  const endpoints = {
    authorization_endpoint: text('authorization_endpoint'),
    token_endpoint: text('token_endpoint'),
    user_info_endpoint: text('userinfo_endpoint'),
  };
  if (!endpoints.authorization_endpoint || !endpoints.token_endpoint) {
    throw new Error('not an OIDC discovery document');
  }
  return endpoints;
}

function OidcFetch({ ctx }: { ctx: PanelContext }) {
  const notify = useNotify();
  const { t } = ctx;
  const fill = async () => {
    const url = (ctx.values[WELL_KNOWN] ?? '').trim();
    const problem = url === '' ? t('validation.wellKnownInvalid') : wellKnownProblem(url, t);
    if (problem) {
      ctx.setError(WELL_KNOWN, problem);
      notify(problem, 'error');
      return;
    }
    try {
      const endpoints = await fetchOidcEndpoints(url);
      ctx.set('oidc.authorization_endpoint', endpoints.authorization_endpoint);
      ctx.set('oidc.token_endpoint', endpoints.token_endpoint);
      ctx.set('oidc.user_info_endpoint', endpoints.user_info_endpoint);
      notify(t('oidc.fetched'), 'success');
    } catch {
      notify(t('oidc.fetchFailed'), 'error');
    }
  };
  return (
    <Button
      variant="outlined"
      onClick={() => void fill()}
      disabled={ctx.readOnly(WELL_KNOWN)}
      sx={{ alignSelf: 'flex-start' }}
    >
      {t('oidc.fetch')}
    </Button>
  );
}

/** System tab: every panel of spec part 1 (server, worker, payment, sign-in, mail, providers). */
export function SystemSettings({ options }: { options: OptionValues }) {
  const { t } = useSettingsTranslation();
  const status = useGetStatusQuery();
  const server = options.values.ServerAddress || (status.data?.server_address ?? '');
  const hint = (key: 'github' | 'oidc' | 'linuxdo' | 'telegram') => (
    <Alert severity="info">{server ? t(`callbacks.${key}`, { server }) : t('callbacks.noServer')}</Alert>
  );

  return (
    <Stack spacing={2}>
      <OptionsPanel id="server" fields={SERVER} options={options} />
      <OptionsPanel id="worker" fields={WORKER} options={options} />
      <OptionsPanel
        id="payment"
        fields={PAYMENT}
        options={options}
        validate={(_entries, ctx) =>
          (ctx.stored.ServerAddress ?? '').trim() === '' ? t('validation.serverAddressRequired') : null
        }
        prepare={(entries) =>
          entries.map((entry) =>
            entry.key === 'Price' ? { ...entry, value: Number(entry.value).toFixed(2) } : entry,
          )
        }
      />
      <OptionsPanel id="login" fields={LOGIN} options={options} />
      <OptionsPanel id="emailDomain" fields={EMAIL_DOMAIN} options={options} />
      <OptionsPanel id="smtp" fields={SMTP} options={options} />
      <OptionsPanel
        id="oidc"
        fields={OIDC}
        options={options}
        extra={(ctx) => (
          <Stack spacing={1}>
            <OidcFetch ctx={ctx} />
            {hint('oidc')}
          </Stack>
        )}
      />
      <OptionsPanel id="github" fields={GITHUB} options={options} extra={() => hint('github')} />
      <OptionsPanel id="linuxdo" fields={LINUXDO} options={options} extra={() => hint('linuxdo')} />
      <OptionsPanel id="wechat" fields={WECHAT} options={options} />
      <OptionsPanel id="telegram" fields={TELEGRAM} options={options} extra={() => hint('telegram')} />
      <OptionsPanel id="turnstile" fields={TURNSTILE} options={options} />
    </Stack>
  );
}

import { useState, type ReactNode } from 'react';
import { Box, Button, Divider, Stack, Typography } from '@mui/material';
import type { SelfUser } from '../../api/api-types';
import { describeApiError } from '../../api/describe-api-error';
import { useApiAction } from '../../api/use-api-action';
import { useNotify } from '../../provider/console-context';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useSystemStatus } from '../../provider/use-system-status';
import { providerEnabled, type RedirectProvider } from '../../lib/oauth-redirect';
import { TelegramLoginButton } from '../../components/telegram-login-button';
import { useProviderRedirect } from '../../lib/use-provider-redirect';
import { WechatCodeDialog } from '../../components/wechat-code-dialog';
import type { TelegramAuthData } from '../../lib/auth-api';
import { useBindTelegramMutation } from '../../lib/oauth-api';
import { OAUTH_NAMESPACE, oauthLocales } from '../../components/oauth-locales';
import { EmailBindDialog } from './email-bind-dialog';
import { useBindWechatMutation } from './personal-api';
import { usePersonalTranslation } from './use-personal-translation';

function BindingRow({ label, value, action }: { label: string; value: string; action?: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', py: 1.25, flexWrap: 'wrap' }}>
      <Typography sx={{ width: 88, flexShrink: 0, fontWeight: 500 }}>{label}</Typography>
      <Typography color="text.secondary" sx={{ flexGrow: 1, minWidth: 0, wordBreak: 'break-all' }}>
        {value}
      </Typography>
      {action}
    </Stack>
  );
}

const PROVIDER_IDS: Record<RedirectProvider, keyof SelfUser> = {
  github: 'github_id',
  oidc: 'oidc_id',
  linuxdo: 'linux_do_id',
};

/** Email, WeChat, GitHub, OIDC, Telegram and LinuxDO bindings of the signed-in account. */
export function BindingsPanel({ self }: { self: SelfUser }) {
  const { t, i18n } = usePersonalTranslation();
  const { status } = useSystemStatus();
  const { t: tOAuth } = useFeatureTranslation(OAUTH_NAMESPACE, oauthLocales);
  const notify = useNotify();
  const redirect = useProviderRedirect();
  const [bindWechat] = useBindWechatMutation();
  const [bindTelegram] = useBindTelegramMutation();
  const telegram = useApiAction(t);
  const [emailOpen, setEmailOpen] = useState(false);
  const [wechatOpen, setWechatOpen] = useState(false);

  const boundText = (value: unknown) => (typeof value === 'string' && value ? value : t('bindings.notBound'));

  const submitWechat = async (code: string) => {
    try {
      await bindWechat({ code }).unwrap();
      notify(t('bindings.wechatBound'), 'success');
      setWechatOpen(false);
    } catch (failure) {
      throw new Error(describeApiError(failure, t, t('failed')), { cause: failure });
    }
  };

  const telegramBot =
    status?.telegram_oauth && typeof status.telegram_bot_name === 'string' ? status.telegram_bot_name : '';
  // The widget's fields go through the API client (session cookie + New-Api-User): the server binds
  // them to this user and answers JSON; the refreshed self shows the new binding.
  const onTelegram = (data: TelegramAuthData) => {
    void telegram.run(() => bindTelegram(data).unwrap(), {
      success: tOAuth('bindSuccess'),
      fallback: t('failed'),
    });
  };

  return (
    <Box>
      <BindingRow
        label={t('bindings.email')}
        value={boundText(self.email)}
        action={
          <Button variant="outlined" size="small" onClick={() => setEmailOpen(true)}>
            {self.email ? t('bindings.change') : t('bindings.bind')}
          </Button>
        }
      />
      <Divider />
      <BindingRow
        label={t('bindings.wechat')}
        value={
          self.wechat_id
            ? t('bindings.bound')
            : status?.wechat_login
              ? t('bindings.notBound')
              : t('bindings.disabled')
        }
        action={
          status?.wechat_login && !self.wechat_id ? (
            <Button variant="outlined" size="small" onClick={() => setWechatOpen(true)}>
              {t('bindings.bind')}
            </Button>
          ) : undefined
        }
      />
      {(['github', 'oidc', 'linuxdo'] as const).map((provider) => {
        const bound = self[PROVIDER_IDS[provider]];
        const enabled = providerEnabled(provider, status);
        return (
          <Box key={provider}>
            <Divider />
            <BindingRow
              label={t(`bindings.${provider}`)}
              value={bound ? boundText(bound) : enabled ? t('bindings.notBound') : t('bindings.disabled')}
              action={
                enabled && !bound ? (
                  <Button
                    variant="outlined"
                    size="small"
                    disabled={redirect.isLoading}
                    onClick={() => void redirect.start(provider)}
                  >
                    {t('bindings.bind')}
                  </Button>
                ) : undefined
              }
            />
          </Box>
        );
      })}
      <Divider />
      <BindingRow
        label={t('bindings.telegram')}
        value={
          self.telegram_id
            ? boundText(self.telegram_id)
            : telegramBot
              ? t('bindings.notBound')
              : t('bindings.disabled')
        }
        action={
          telegramBot && !self.telegram_id ? (
            <TelegramLoginButton botName={telegramBot} onAuth={onTelegram} language={i18n.language} />
          ) : undefined
        }
      />

      <EmailBindDialog open={emailOpen} onClose={() => setEmailOpen(false)} />
      <WechatCodeDialog
        open={wechatOpen}
        title={t('bindings.wechatTitle')}
        qrCodeUrl={typeof status?.wechat_qrcode === 'string' ? status.wechat_qrcode : undefined}
        onClose={() => setWechatOpen(false)}
        onSubmit={submitWechat}
      />
    </Box>
  );
}

import { useState } from 'react';
import { Box, Button, Divider, Stack } from '@mui/material';
import { useNavigate } from 'react-router';
import { describeApiError } from '../api/describe-api-error';
import { useApiAction } from '../api/use-api-action';
import type { SessionUser } from '../api/api-types';
import { useFeatureTranslation } from '../provider/console-i18n';
import { useConsoleStorage, useNotify } from '../provider/console-context';
import { StorageKeys } from '../provider/console-storage';
import { useSession } from '../provider/use-session';
import { useSystemStatus } from '../provider/use-system-status';
import { GitHubIcon } from '../shell/shell-icons';
import { useWechatSignInMutation } from '../lib/oauth-api';
import { useTelegramLoginMutation, type TelegramAuthData } from '../lib/auth-api';
import { needsSecondFactor, SECOND_FACTOR_PATH } from './second-factor-step';
import { AUTH_NAMESPACE, authLocales } from './auth-locales';
import { providerEnabled, REDIRECT_PROVIDERS, type RedirectProvider } from '../lib/oauth-redirect';
import { TelegramLoginButton } from './telegram-login-button';
import { useProviderRedirect } from '../lib/use-provider-redirect';
import { WechatCodeDialog } from './wechat-code-dialog';

/** docs/decisions.md#sign-in-landing: scan-code and Telegram sign-ins land on the home page. */
export const AFTER_WIDGET_LOGIN_PATH = '/';

const PROVIDER_LABEL_KEYS: Record<RedirectProvider, string> = {
  github: 'thirdParty.github',
  oidc: 'thirdParty.oidc',
  linuxdo: 'thirdParty.linuxdo',
};

/** The third-party sign-in buttons the public status turns on; nothing when none is. */
export function ThirdPartySignIn() {
  const { t, i18n } = useFeatureTranslation(AUTH_NAMESPACE, authLocales);
  const { status } = useSystemStatus();
  const { signIn } = useSession();
  const notify = useNotify();
  const navigate = useNavigate();
  const redirect = useProviderRedirect();
  const [wechatOpen, setWechatOpen] = useState(false);
  const storage = useConsoleStorage();
  const [wechatSignIn] = useWechatSignInMutation();
  const [telegramLogin] = useTelegramLoginMutation();
  const telegram = useApiAction(t);

  const providers = REDIRECT_PROVIDERS.filter((provider) => providerEnabled(provider, status));
  const wechat = Boolean(status?.wechat_login);
  const telegramBot =
    status?.telegram_oauth && typeof status.telegram_bot_name === 'string' ? status.telegram_bot_name : '';
  if (providers.length === 0 && !wechat && !telegramBot) {
    return null;
  }

  const finish = (user: SessionUser) => {
    // The account has a second factor: the login page asks for it (the server holds the first step).
    if (needsSecondFactor(user)) {
      void navigate(SECOND_FACTOR_PATH);
      return;
    }
    signIn(user);
    notify(t('login.success'), 'success');
    void navigate(AFTER_WIDGET_LOGIN_PATH);
  };

  const submitWechat = async (code: string) => {
    try {
      // A scan-code sign-in may create the account: the stored invitation code goes along.
      const aff = storage.getItem(StorageKeys.aff) ?? undefined;
      finish(await wechatSignIn(aff ? { code, aff } : { code }).unwrap());
      setWechatOpen(false);
    } catch (failure) {
      throw new Error(describeApiError(failure, t, t('login.failed')), { cause: failure });
    }
  };

  const onTelegram = (data: TelegramAuthData) => {
    void telegram.run(async () => finish(await telegramLogin(data).unwrap()), {
      fallback: t('login.failed'),
    });
  };

  return (
    <Box>
      <Divider sx={{ my: 1 }}>{t('thirdParty.divider')}</Divider>
      <Stack spacing={1}>
        {providers.map((provider) => (
          <Button
            key={provider}
            variant="outlined"
            startIcon={provider === 'github' ? <GitHubIcon /> : undefined}
            disabled={redirect.isLoading}
            onClick={() => void redirect.start(provider)}
          >
            {t(PROVIDER_LABEL_KEYS[provider])}
          </Button>
        ))}
        {wechat && (
          <Button variant="outlined" onClick={() => setWechatOpen(true)}>
            {t('thirdParty.wechat')}
          </Button>
        )}
        {telegramBot && (
          <TelegramLoginButton botName={telegramBot} onAuth={onTelegram} language={i18n.language} />
        )}
      </Stack>
      <WechatCodeDialog
        open={wechatOpen}
        title={t('wechat.loginTitle')}
        qrCodeUrl={typeof status?.wechat_qrcode === 'string' ? status.wechat_qrcode : undefined}
        onClose={() => setWechatOpen(false)}
        onSubmit={submitWechat}
      />
    </Box>
  );
}

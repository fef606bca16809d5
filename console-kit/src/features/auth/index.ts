export { LoginPage, AFTER_LOGIN_PATH, type LoginPageProps } from './login-page';
export { useRememberInviteCode } from '../../lib/invite-code';
export { authLocales, AUTH_NAMESPACE } from '../../components/auth-locales';
export {
  authApi,
  useGetOAuthStateMutation,
  useWechatLoginMutation,
  useTelegramLoginMutation,
  telegramParams,
} from '../../lib/auth-api';
export type { TelegramAuthData } from '../../lib/auth-api';
export {
  authorizeUrlOf,
  callbackParams,
  normalizeOAuthState,
  providerEnabled,
  isRedirectProvider,
  REDIRECT_PROVIDERS,
  type OAuthState,
  type RedirectProvider,
} from '../../lib/oauth-redirect';
export { ThirdPartySignIn, AFTER_WIDGET_LOGIN_PATH } from '../../components/third-party-sign-in';
export { TurnstileWidget, useHumanCheck, TURNSTILE_SCRIPT_URL } from '../../components/turnstile-widget';
export { WechatCodeDialog } from '../../components/wechat-code-dialog';
export { TelegramLoginButton } from '../../components/telegram-login-button';
export { useProviderRedirect } from '../../lib/use-provider-redirect';
export { authFeature } from './feature';

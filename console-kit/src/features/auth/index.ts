export { LoginPage, AFTER_LOGIN_PATH, useRememberInviteCode, type LoginPageProps } from './login-page';
export { authLocales, AUTH_NAMESPACE } from './auth-locales';
export {
  authApi,
  useGetOAuthStateMutation,
  useWechatLoginMutation,
  useTelegramLoginMutation,
  telegramParams,
} from './auth-api';
export type { TelegramAuthData } from './auth-api';
export {
  authorizeUrlOf,
  callbackParams,
  normalizeOAuthState,
  providerEnabled,
  isRedirectProvider,
  REDIRECT_PROVIDERS,
  type OAuthState,
  type RedirectProvider,
} from './oauth-redirect';
export { ThirdPartySignIn, AFTER_WIDGET_LOGIN_PATH } from './third-party-sign-in';
export { TurnstileWidget, useHumanCheck, TURNSTILE_SCRIPT_URL } from '../../components/turnstile-widget';
export { WechatCodeDialog } from './wechat-code-dialog';
export { TelegramLoginButton } from './telegram-login-button';
export { useProviderRedirect } from './use-provider-redirect';
export { authFeature } from './feature';

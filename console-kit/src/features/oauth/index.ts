export {
  OAuthCallbackPage,
  OAUTH_LOGIN_LANDING,
  OAUTH_BIND_LANDING,
  OAUTH_FAILURE_LANDING,
  OAUTH_FAILURE_DELAY_MS,
} from './oauth-callback-page';
export {
  oauthApi,
  useStartOAuthMutation,
  useCompleteOAuthQuery,
  useWechatSignInMutation,
  useBindTelegramMutation,
  type OAuthCallbackArgs,
} from '../../lib/oauth-api';
export { oauthLocales, OAUTH_NAMESPACE } from '../../components/oauth-locales';
export { oauthFeature } from './feature';

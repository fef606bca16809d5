import type { BoolOptionKey } from '../option';

/** Providers whose sign-in is a browser redirect to the provider and back to the console's /oauth/{type}. */
export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';
/** Every kind of third-party identity a user can bind (a column of the user row each). */
export type IdentityKind = RedirectProvider | 'wechat' | 'telegram';

export const REDIRECT_PROVIDERS: readonly RedirectProvider[] = ['github', 'oidc', 'linuxdo'];

/** Shown in messages. */
export const PROVIDER_LABEL: Record<IdentityKind, string> = {
  github: 'GitHub',
  oidc: 'OIDC',
  linuxdo: 'LinuxDO',
  wechat: 'WeChat',
  telegram: 'Telegram',
};

/** The option that switches each provider on. */
export const ENABLED_OPTION: Record<IdentityKind, BoolOptionKey> = {
  github: 'GitHubOAuthEnabled',
  oidc: 'oidc.enabled',
  linuxdo: 'LinuxDOOAuthEnabled',
  wechat: 'WeChatAuthEnabled',
  telegram: 'TelegramOAuthEnabled',
};

/** Who the provider says the person is. `id` is the stable identifier stored on the user row. */
export interface ProviderIdentity {
  id: string;
  /** A preferred account name (used for a new account when it is free and fits). */
  username?: string;
  displayName?: string;
  /** Only an address the provider has verified. */
  email?: string | null;
}

/** What a state remembers between `/api/oauth/state` and the callback. */
export interface StateRecord {
  /** The browser it was issued to (the oauth_browser cookie). */
  browser: string;
  /** The signed-in user it was issued to; 0 when nobody was signed in. */
  uid: number;
  /** Invitation code to apply when the callback creates an account. */
  aff: string;
  /** The provider it was issued for; '' = any redirect provider except OIDC. */
  provider: RedirectProvider | 'telegram' | '';
  /** Unix seconds. */
  expiresAt: number;
  redirectUri?: string;
  /** OIDC: PKCE code verifier and nonce. */
  verifier?: string;
  nonce?: string;
}

/** The management API envelope (docs/decisions.md#api-envelope): HTTP 200 with success:false for business failures. */
export interface ApiEnvelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}

/**
 * What every kit endpoint rejects with.
 * - `ENVELOPE`: the server answered success:false; `message` is its (already localized) reason.
 * - a number: a real HTTP status (401, 403, 404, 413, 429, 500...).
 * - `NETWORK`, `PARSE`, `TIMEOUT`: the request never produced a usable answer.
 */
export interface ApiError {
  status: number | 'ENVELOPE' | 'NETWORK' | 'PARSE' | 'TIMEOUT';
  message: string;
  data?: unknown;
}

export const UserRole = { user: 1, admin: 10, root: 100 } as const;

/** `POST /api/user/login` → data; also what is kept in localStorage under `user`. */
export interface SessionUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

/** `GET /api/user/self`: the user without secrets (docs/decisions.md#secrets-never-leave). */
export interface SelfUser extends SessionUser {
  email?: string;
  quota?: number;
  used_quota?: number;
  request_count?: number;
  aff_code?: string;
  aff_count?: number;
  aff_quota?: number;
  aff_history_quota?: number;
  inviter_id?: number;
  github_id?: string;
  oidc_id?: string;
  wechat_id?: string;
  telegram_id?: string;
  linux_do_id?: string;
  /** A JSON string of {@link UserSetting}. */
  setting?: string;
  created_at?: number;
  DeletedAt?: string | null;
  [field: string]: unknown;
}

/** The user's own notification and pricing preferences, kept in `setting` as JSON. */
export interface UserSetting {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

/** `GET /api/status` → data (docs/decisions.md#status-mirrors). Unknown fields pass through. */
export interface SystemStatus {
  setup: boolean;
  system_name?: string;
  logo?: string;
  footer_html?: string;
  version?: string;
  start_time?: number;
  docs_link?: string;
  self_use_mode_enabled?: boolean;
  demo_site_enabled?: boolean;
  quota_per_unit?: number;
  display_in_currency?: boolean;
  enable_drawing?: boolean;
  enable_task?: boolean;
  enable_data_export?: boolean;
  default_collapse_sidebar?: boolean;
  mj_notify_enabled?: boolean;
  /** Configured chat links: each entry maps a display name to a URL template. */
  chats?: Record<string, string>[];
  chat_link?: string;
  chat_link2?: string;
  server_address?: string;
  email_verification?: boolean;
  turnstile_check?: boolean;
  turnstile_site_key?: string;
  github_oauth?: boolean;
  github_client_id?: string;
  oidc_enabled?: boolean;
  oidc_authorization_endpoint?: string;
  oidc_client_id?: string;
  wechat_login?: boolean;
  wechat_qrcode?: string;
  telegram_oauth?: boolean;
  telegram_bot_name?: string;
  linuxdo_oauth?: boolean;
  linuxdo_client_id?: string;
  password_login_enabled?: boolean;
  password_register_enabled?: boolean;
  register_enabled?: boolean;
  [field: string]: unknown;
}

export type DatabaseType = 'sqlite' | 'mysql' | 'postgres';

/** `GET /api/setup` → data. */
export interface SetupState {
  status: boolean;
  root_init: boolean;
  database_type: DatabaseType;
}

/** `POST /api/setup` body; field names are the wire names. */
export interface SetupPayload {
  username: string;
  password: string;
  confirmPassword: string;
  SelfUseModeEnabled: boolean;
  DemoSiteEnabled: boolean;
}

export interface LoginPayload {
  username: string;
  password: string;
}

/**
 * What an endpoint that needs the envelope's `message` on success resolves to: `POST /api/user/login`
 * carries the default-password warning there, `GET /api/oauth/{type}` says `bind`.
 */
export interface WithServerMessage<T> {
  data: T;
  message: string;
}

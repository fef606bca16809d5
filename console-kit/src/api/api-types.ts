import type { Schemas } from './wire';

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
export type SessionUser = Schemas['LoginResult'];

/** `GET /api/user/self`: the user without secrets (docs/decisions.md#secrets-never-leave). */
export type SelfUser = Schemas['UserView'];

/** The user's own notification and pricing preferences, kept in `setting` as JSON. */
export interface UserSetting {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
  accept_unset_model_ratio_model: boolean;
}

/** `GET /api/status` → data (docs/decisions.md#status-mirrors). */
export type SystemStatus = Schemas['StatusView'];

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

/** The management API envelope (contract.md): HTTP 200 with success:false for business failures. */
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

/** `GET /api/user/self`: the user without secrets. Fields beyond these are added as features need them. */
export interface SelfUser extends SessionUser {
  email?: string;
  quota?: number;
  used_quota?: number;
  request_count?: number;
  aff_code?: string;
  setting?: string;
  [field: string]: unknown;
}

/** `GET /api/status` → data. Only the fields the kit reads so far are typed; the rest pass through. */
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

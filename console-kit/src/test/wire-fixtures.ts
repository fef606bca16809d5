/**
 * Complete wire objects for tests: the documented defaults (empty, off, zero) with the fields a test
 * cares about on top, so a fixture stays a valid `SystemStatus` or `SelfUser` as the contract grows.
 */
import type { SelfUser, SystemStatus } from '../api/api-types';

const STATUS: SystemStatus = {
  system_name: '',
  logo: '',
  footer_html: '',
  quota_per_unit: 0,
  display_in_currency: false,
  display_token_stat: false,
  enable_drawing: false,
  enable_task: false,
  enable_data_export: false,
  chats: [],
  pay_methods: [],
  data_export_default_time: '',
  default_collapse_sidebar: false,
  mj_notify_enabled: false,
  chat_link: '',
  chat_link2: '',
  docs_link: '',
  version: '',
  version_check_repo: '',
  start_time: 0,
  email_verification: false,
  turnstile_check: false,
  turnstile_site_key: '',
  github_oauth: false,
  github_client_id: '',
  oidc_enabled: false,
  oidc_authorization_endpoint: '',
  oidc_client_id: '',
  wechat_login: false,
  wechat_qrcode: '',
  telegram_oauth: false,
  telegram_bot_name: '',
  linuxdo_oauth: false,
  linuxdo_client_id: '',
  server_address: '',
  setup: true,
  self_use_mode_enabled: false,
  demo_site_enabled: false,
  default_use_auto_group: false,
  enable_online_topup: false,
  price: 0,
  min_topup: 0,
  top_up_link: '',
  usd_exchange_rate: 0,
  password_login_enabled: false,
  password_register_enabled: false,
  register_enabled: false,
};

const SELF: SelfUser = {
  id: 0,
  username: '',
  display_name: '',
  role: 0,
  status: 0,
  email: '',
  group: '',
  quota: 0,
  used_quota: 0,
  request_count: 0,
  aff_code: '',
  aff_count: 0,
  aff_quota: 0,
  aff_history_quota: 0,
  inviter_id: 0,
  github_id: '',
  oidc_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  setting: '',
  created_at: 0,
  DeletedAt: null,
  budget: null,
};

/** `GET /api/status` data with `fields` set. */
export function statusOf(fields: Partial<SystemStatus> = {}): SystemStatus {
  return { ...STATUS, ...fields };
}

/** `GET /api/user/self` data with `fields` set. */
export function selfUserOf(fields: Partial<SelfUser> = {}): SelfUser {
  return { ...SELF, ...fields };
}

/** Messages of two-factor sign-in, passkeys, step-up checks and the audit trail; merged into MESSAGES. */
export const ACCOUNT_SECURITY_MESSAGES = {
  login_2fa_required: {
    zh: '请输入两步验证码或使用通行密钥完成登录',
    en: 'Enter your two-factor code or use a passkey to finish signing in',
  },
  two_factor_pending_missing: {
    zh: '登录已过期，请重新输入用户名和密码',
    en: 'The sign-in has expired; enter your username and password again',
  },
  two_factor_code_invalid: {
    zh: '两步验证码错误或已使用',
    en: 'The two-factor code is wrong or was already used',
  },
  two_factor_locked: {
    zh: '两步验证错误次数过多，已锁定，请 {minutes} 分钟后再试',
    en: 'Too many wrong two-factor codes: the second step is locked; try again in {minutes} minutes',
  },
  two_factor_slow_down: {
    zh: '两步验证错误次数过多，请 {seconds} 秒后再试',
    en: 'Too many wrong two-factor codes; wait {seconds} seconds before the next try',
  },
  totp_already_enabled: {
    zh: '已启用身份验证器，请先停用',
    en: 'An authenticator app is already on; turn it off first',
  },
  totp_setup_missing: { zh: '请先开始绑定身份验证器', en: 'Start setting up the authenticator app first' },
  totp_not_enabled: { zh: '未启用身份验证器', en: 'No authenticator app is set up' },
  two_factor_enrolment_required: {
    zh: '管理员须先启用两步验证（个人设置 → 安全设置）',
    en: 'Administrators must turn on two-factor sign-in first (Personal settings → Security)',
  },
  step_up_required: {
    zh: '此操作需要重新验证身份，请输入密码或两步验证码',
    en: 'Confirm it is you to do this: enter your password or a two-factor code',
  },
  json_body_required: {
    zh: '请求体须为 JSON（Content-Type: application/json）',
    en: 'The request body must be JSON (Content-Type: application/json)',
  },
  session_required: {
    zh: '访问令牌不能执行此操作，请在已登录的控制台中操作',
    en: 'An access token cannot do this; do it in a signed-in console session',
  },
  step_up_factor_required: {
    zh: '已启用两步验证，请使用两步验证码或通行密钥验证',
    en: 'Two-factor sign-in is on: confirm with a two-factor code or a passkey',
  },
  step_up_unavailable: {
    zh: '账号没有密码或两步验证，请重新登录后再操作',
    en: 'The account has no password or second factor; sign in again, then retry',
  },
  passkey_invalid: { zh: '通行密钥验证失败', en: 'The passkey could not be verified' },
  passkey_challenge_missing: {
    zh: '通行密钥验证已过期，请重试',
    en: 'The passkey request has expired; try again',
  },
  passkey_unknown: { zh: '此通行密钥未绑定任何账号', en: 'This passkey belongs to no account' },
  passkey_not_found: { zh: '通行密钥不存在', en: 'No such passkey' },
  passkey_name_invalid: { zh: '通行密钥名称最长 64 个字符', en: 'A passkey name is at most 64 characters' },
  passkey_limit: { zh: '最多绑定 10 个通行密钥', en: 'At most 10 passkeys per account' },
  // Audit summaries of bulk actions: stored as key + parameters and rendered in the reader's language.
  audit_summary_2fa_failed_login: {
    zh: '登录时两步验证失败（一小时内第 {failures} 次）',
    en: 'Wrong second factor at sign-in (failure {failures} within the hour)',
  },
  audit_summary_2fa_failed_step_up: {
    zh: '身份确认时两步验证失败（一小时内第 {failures} 次）',
    en: 'Wrong second factor when confirming identity (failure {failures} within the hour)',
  },
  audit_summary_2fa_locked: {
    zh: '两步验证已锁定 {minutes} 分钟',
    en: 'Second step locked for {minutes} minutes',
  },
  audit_summary_count: { zh: '共 {count} 项', en: 'Affected: {count}' },
  audit_summary_redemptions_created: {
    zh: '{name} × {count}，每个额度 {quota}',
    en: '{name} × {count}, {quota} quota each',
  },
  audit_summary_tag: { zh: '标签 {tag}：{count} 个渠道', en: 'Tag {tag}, channels: {count}' },
  audit_summary_tag_fields: {
    zh: '标签 {tag}：{count} 个渠道，字段 {fields}',
    en: 'Tag {tag}, channels: {count}, fields: {fields}',
  },
  audit_summary_logs_deleted: {
    zh: '删除 {before} 之前的 {count} 条日志',
    en: 'Logs written before {before} deleted: {count}',
  },
} as const;

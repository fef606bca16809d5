/**
 * Every message the management API can answer with, in Chinese (the default) and English.
 * Errors are raised by key (see AppError); the filter picks the language per request.
 */
export const MESSAGES = {
  // generic
  invalid_params: { zh: '无效的参数', en: 'Invalid parameters' },
  invalid_json: { zh: '请求体不是合法的 JSON', en: 'The request body is not valid JSON' },
  field_invalid: { zh: '参数 {field} 无效：{reason}', en: 'Invalid {field}: {reason}' },
  body_too_large: { zh: '请求体过大', en: 'Request body too large' },
  not_found_route: { zh: '接口不存在', en: 'No such API route' },
  internal_error: { zh: '服务器内部错误，请联系管理员', en: 'Internal server error, contact the administrator' },
  rate_limited: { zh: '请求次数过多，请稍后再试', en: 'Too many requests, try again later' },
  setup_required: { zh: '系统尚未初始化，请先完成初始化设置', en: 'The system is not initialized yet; complete the setup first' },
  // auth
  not_logged_in: { zh: '未登录或登录已过期，请重新登录', en: 'Not logged in or session expired. Please login again!' },
  new_api_user_missing: { zh: '无权进行此操作，未提供 New-Api-User', en: 'Not allowed: the New-Api-User header is missing' },
  new_api_user_mismatch: { zh: '无权进行此操作，New-Api-User 与登录用户不匹配', en: 'Not allowed: New-Api-User does not match the signed-in user' },
  access_token_invalid: { zh: '无权进行此操作，access token 无效', en: 'Not allowed: invalid access token' },
  user_banned: { zh: '用户已被封禁', en: 'This user has been banned' },
  user_deleted: { zh: '用户已注销', en: 'This account has been deregistered' },
  forbidden: { zh: '无权进行此操作，权限不足', en: 'Not allowed: insufficient permission' },
  root_only: { zh: '仅超级管理员可修改此项', en: 'Only the super admin may change this' },
  // login / register
  login_fields_required: { zh: '请输入用户名和密码！', en: 'Please enter username and password!' },
  default_password_warning: { zh: '登录成功！您正在使用默认密码，请立刻修改默认密码！', en: 'Signed in. You are using the default password: change it at once!' },
  login_failed: { zh: '用户名或密码错误，或用户已被封禁', en: 'Wrong username or password, or the user is banned' },
  password_login_disabled: { zh: '管理员关闭了密码登录', en: 'The administrator has disabled password login' },
  register_disabled: { zh: '管理员关闭了新用户注册', en: 'The administrator has closed new registrations' },
  password_register_disabled: { zh: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册', en: 'The administrator has disabled password registration; sign up with a third-party account' },
  username_password_required: { zh: '用户名和密码不能为空！', en: 'Username and password cannot be empty!' },
  username_too_long: { zh: '用户名长度不得超过 12 个字符', en: 'Username must be at most 12 characters' },
  username_invalid: { zh: '用户名不能包含空白或控制字符', en: 'Username must not contain spaces or control characters' },
  password_too_short: { zh: '密码长度不得小于 8 位！', en: 'Password must be at least 8 characters!' },
  password_too_long: { zh: '密码长度不得超过 20 位', en: 'Password must be at most 20 characters' },
  password_mismatch: { zh: '两次输入的密码不一致', en: 'The two passwords entered do not match' },
  username_taken: { zh: '用户名已存在，或已注销', en: 'Username already taken (or reserved by a deregistered account)' },
  email_taken: { zh: '邮箱地址已被占用', en: 'Email address already in use' },
  display_name_too_long: { zh: '显示名称长度不得超过 20 个字符', en: 'Display name must be at most 20 characters' },
  email_required: { zh: '请输入邮箱！', en: 'Please enter an email address!' },
  email_invalid: { zh: '邮箱地址格式不正确', en: 'Invalid email address' },
  code_required: { zh: '请输入邮箱验证码！', en: 'Please enter the email verification code!' },
  code_invalid: { zh: '验证码错误或已过期', en: 'Verification code is wrong or has expired' },
  code_too_soon: { zh: '发送过于频繁，请 {seconds} 秒后再试', en: 'Too frequent: try again in {seconds} seconds' },
  email_domain_not_allowed: { zh: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中', en: 'The administrator restricts email domains; yours is not on the whitelist' },
  email_alias_not_allowed: { zh: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。', en: 'The administrator forbids email aliases; your address was refused because it contains special characters' },
  smtp_not_configured: { zh: 'SMTP 服务器未配置', en: 'The SMTP server is not configured' },
  email_send_failed: { zh: '邮件发送失败，请稍后再试', en: 'Failed to send the email, try again later' },
  turnstile_missing: { zh: 'Turnstile token 为空', en: 'The Turnstile token is empty' },
  turnstile_failed: { zh: 'Turnstile 校验失败，请刷新重试！', en: 'Turnstile check failed, refresh and retry!' },
  reset_link_invalid: { zh: '重置链接非法或已过期', en: 'The reset link is invalid or has expired' },
  aff_code_invalid: { zh: '邀请码无效', en: 'Invalid invitation code' },
  // users
  user_not_found: { zh: '用户不存在', en: 'User not found' },
  cannot_act_on_peer: { zh: '无权操作同级或更高权限的用户', en: 'No permission to act on a user of the same or a higher role' },
  cannot_touch_root: { zh: '无法禁用、删除或降级超级管理员', en: 'The super admin cannot be disabled, deleted or demoted' },
  cannot_promote: { zh: '普通管理员用户无法提升其他用户为管理员', en: 'Only the super admin can promote users to admin' },
  already_admin: { zh: '该用户已经是管理员', en: 'This user is already an admin' },
  already_user: { zh: '该用户已经是普通用户', en: 'This user is already an ordinary user' },
  user_already_deleted: { zh: '该用户已注销', en: 'This user has already been deregistered' },
  invalid_action: { zh: '无效的操作', en: 'Invalid action' },
  quota_invalid: { zh: '额度必须是整数，且不能超出范围', en: 'Quota must be a whole number within range' },
  quota_below_zero: { zh: '调整后额度不能小于 0', en: 'Quota cannot go below zero' },
  quota_changed_concurrently: { zh: '额度已被其他操作修改，请刷新后重试', en: 'The quota was changed meanwhile; reload and retry' },
  group_invalid: { zh: '分组不存在', en: 'No such group' },
  original_password_wrong: { zh: '原密码错误', en: 'The original password is wrong' },
  root_cannot_delete_self: { zh: '超级管理员不能注销自己的账户', en: 'The super admin cannot deregister their own account' },
  confirm_username_mismatch: { zh: '请输入你的账户名以确认删除！', en: 'Type your username to confirm the deletion!' },
  aff_transfer_min: { zh: '划转金额最低为 {min}', en: 'The minimum transfer is {min}' },
  aff_quota_insufficient: { zh: '邀请额度不足', en: 'Not enough invitation quota' },
  webhook_https_only: { zh: 'Webhook 地址必须以 https:// 开头', en: 'The webhook URL must start with https://' },
  setting_invalid: { zh: '通知设置无效：{reason}', en: 'Invalid notification settings: {reason}' },
  // options
  option_unknown: { zh: '未知的配置项：{key}', en: 'Unknown option: {key}' },
  option_invalid: { zh: '配置项 {key} 的值无效：{reason}', en: 'Invalid value for {key}: {reason}' },
  option_not_json: { zh: '{key} 不是合法的 JSON 字符串', en: '{key} is not a valid JSON string' },
  topup_ratio_not_json: { zh: '充值分组倍率不是合法的 JSON 字符串', en: 'The top-up group ratio is not a valid JSON string' },
  pay_methods_not_json: { zh: '充值方式设置不是合法的 JSON 字符串', en: 'The payment method setting is not a valid JSON string' },
  server_address_required: { zh: '请先填写服务器地址', en: 'Fill in the server address first' },
  domain_invalid: { zh: '邮箱域名格式不正确，请输入有效的域名，如 {host}', en: 'Invalid email domain; enter a valid domain such as {host}' },
  domain_duplicate: { zh: '该域名已存在于白名单中', en: 'The domain is already on the whitelist' },
  well_known_invalid: { zh: 'Well-Known URL 必须以 http:// 或 https:// 开头', en: 'The Well-Known URL must start with http:// or https://' },
  model_price_zero: { zh: '模型价格不能为0', en: 'A model price cannot be 0' },
  // setup
  setup_done: { zh: '系统已经初始化完成', en: 'The system has already been initialized' },
  setup_username_required: { zh: '请输入管理员用户名', en: 'Please enter the admin username' },
  setup_password_short: { zh: '密码长度至少为8个字符', en: 'Password must be at least 8 characters long' },
  setup_password_mismatch: { zh: '两次输入的密码不一致', en: 'The two passwords entered do not match' },
  // logs
  log_target_required: { zh: '请选择日志记录时间', en: 'Choose a log time' },
} as const;

export type MessageKey = keyof typeof MESSAGES;
export type Lang = 'zh' | 'en';

export function pickLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'zh';
  const first = acceptLanguage.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh';
}

export function translate(key: MessageKey, lang: Lang, params: Record<string, unknown> = {}): string {
  const template: string = MESSAGES[key][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (name in params ? String(params[name]) : `{${name}}`));
}

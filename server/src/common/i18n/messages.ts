import { BUDGET_MESSAGES } from './messages-budgets';
import { CHANNEL_OPS_MESSAGES } from './messages-channel-ops';
import { LIMITS_MESSAGES } from './messages-limits';
import { LOGS_MESSAGES } from './messages-logs';
import { OAUTH_MESSAGES } from './messages-oauth';
import { ACCOUNT_SECURITY_MESSAGES } from './messages-account-security';
import { SECURITY_MESSAGES } from './messages-security';
import { TASKS_MESSAGES } from './messages-tasks';
import { WALLET_MESSAGES } from './messages-wallet';

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
  internal_error: {
    zh: '服务器内部错误，请联系管理员',
    en: 'Internal server error, contact the administrator',
  },
  rate_limited: { zh: '请求次数过多，请稍后再试', en: 'Too many requests, try again later' },
  setup_required: {
    zh: '系统尚未初始化，请先完成初始化设置',
    en: 'The system is not initialized yet; complete the setup first',
  },
  // auth
  not_logged_in: {
    zh: '未登录或登录已过期，请重新登录',
    en: 'Not logged in or session expired. Please login again!',
  },
  new_api_user_missing: {
    zh: '无权进行此操作，未提供 New-Api-User',
    en: 'Not allowed: the New-Api-User header is missing',
  },
  new_api_user_mismatch: {
    zh: '无权进行此操作，New-Api-User 与登录用户不匹配',
    en: 'Not allowed: New-Api-User does not match the signed-in user',
  },
  access_token_invalid: { zh: '无权进行此操作，access token 无效', en: 'Not allowed: invalid access token' },
  user_banned: { zh: '用户已被封禁', en: 'This user has been banned' },
  user_deleted: { zh: '用户已注销', en: 'This account has been deregistered' },
  forbidden: { zh: '无权进行此操作，权限不足', en: 'Not allowed: insufficient permission' },
  root_only: { zh: '仅超级管理员可修改此项', en: 'Only the super admin may change this' },
  // login / register
  login_fields_required: { zh: '请输入用户名和密码！', en: 'Please enter username and password!' },
  default_password_warning: {
    zh: '登录成功！您正在使用默认密码，请立刻修改默认密码！',
    en: 'Signed in. You are using the default password: change it at once!',
  },
  login_failed: {
    zh: '用户名或密码错误，或用户已被封禁',
    en: 'Wrong username or password, or the user is banned',
  },
  password_login_disabled: {
    zh: '管理员关闭了密码登录',
    en: 'The administrator has disabled password login',
  },
  register_disabled: { zh: '管理员关闭了新用户注册', en: 'The administrator has closed new registrations' },
  password_register_disabled: {
    zh: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    en: 'The administrator has disabled password registration; sign up with a third-party account',
  },
  username_password_required: { zh: '用户名和密码不能为空！', en: 'Username and password cannot be empty!' },
  username_too_long: { zh: '用户名长度不得超过 12 个字符', en: 'Username must be at most 12 characters' },
  username_invalid: {
    zh: '用户名不能包含空白或控制字符',
    en: 'Username must not contain spaces or control characters',
  },
  username_lookalike: {
    zh: '用户名不能包含全角字符、组合符号或方向控制符，也不能混用拉丁字母与西里尔或希腊字母',
    en: 'Username must not contain full-width forms, combining marks or direction controls, nor mix Latin with Cyrillic or Greek letters',
  },
  password_too_short: { zh: '密码长度不得小于 8 位！', en: 'Password must be at least 8 characters!' },
  password_too_long: { zh: '密码长度不得超过 20 位', en: 'Password must be at most 20 characters' },
  password_mismatch: { zh: '两次输入的密码不一致', en: 'The two passwords entered do not match' },
  username_taken: {
    zh: '用户名已存在，或已注销',
    en: 'Username already taken (or reserved by a deregistered account)',
  },
  email_taken: { zh: '邮箱地址已被占用', en: 'Email address already in use' },
  display_name_too_long: {
    zh: '显示名称长度不得超过 20 个字符',
    en: 'Display name must be at most 20 characters',
  },
  email_required: { zh: '请输入邮箱！', en: 'Please enter an email address!' },
  email_invalid: { zh: '邮箱地址格式不正确', en: 'Invalid email address' },
  code_required: { zh: '请输入邮箱验证码！', en: 'Please enter the email verification code!' },
  code_invalid: { zh: '验证码错误或已过期', en: 'Verification code is wrong or has expired' },
  code_too_soon: {
    zh: '发送过于频繁，请 {seconds} 秒后再试',
    en: 'Too frequent: try again in {seconds} seconds',
  },
  email_domain_not_allowed: {
    zh: '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    en: 'The administrator restricts email domains; yours is not on the whitelist',
  },
  email_alias_not_allowed: {
    zh: '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    en: 'The administrator forbids email aliases; your address was refused because it contains special characters',
  },
  smtp_not_configured: { zh: 'SMTP 服务器未配置', en: 'The SMTP server is not configured' },
  email_send_failed: { zh: '邮件发送失败，请稍后再试', en: 'Failed to send the email, try again later' },
  turnstile_missing: { zh: 'Turnstile token 为空', en: 'The Turnstile token is empty' },
  turnstile_failed: {
    zh: 'Turnstile 校验失败，请刷新重试！',
    en: 'Turnstile check failed, refresh and retry!',
  },
  reset_link_invalid: { zh: '重置链接非法或已过期', en: 'The reset link is invalid or has expired' },
  aff_code_invalid: { zh: '邀请码无效', en: 'Invalid invitation code' },
  // users
  user_not_found: { zh: '用户不存在', en: 'User not found' },
  cannot_act_on_peer: {
    zh: '无权操作同级或更高权限的用户',
    en: 'No permission to act on a user of the same or a higher role',
  },
  cannot_touch_root: {
    zh: '无法禁用、删除或降级超级管理员',
    en: 'The super admin cannot be disabled, deleted or demoted',
  },
  cannot_promote: {
    zh: '普通管理员用户无法提升其他用户为管理员',
    en: 'Only the super admin can promote users to admin',
  },
  already_admin: { zh: '该用户已经是管理员', en: 'This user is already an admin' },
  already_user: { zh: '该用户已经是普通用户', en: 'This user is already an ordinary user' },
  user_already_deleted: { zh: '该用户已注销', en: 'This user has already been deregistered' },
  invalid_action: { zh: '无效的操作', en: 'Invalid action' },
  quota_invalid: { zh: '额度必须是整数，且不能超出范围', en: 'Quota must be a whole number within range' },
  quota_mode_invalid: {
    zh: '无效的额度调整方式 {mode}，应为 add、subtract 或 override',
    en: 'Invalid quota mode {mode}: use add, subtract or override',
  },
  quota_amount_positive: {
    zh: '增加或扣减的额度必须是正整数',
    en: 'The amount to add or subtract must be a positive whole number',
  },
  quota_below_zero: { zh: '调整后额度不能小于 0', en: 'Quota cannot go below zero' },
  quota_changed_concurrently: {
    zh: '额度已被其他操作修改，请刷新后重试',
    en: 'The quota was changed meanwhile; reload and retry',
  },
  group_invalid: { zh: '分组不存在', en: 'No such group' },
  original_password_wrong: { zh: '原密码错误', en: 'The original password is wrong' },
  root_cannot_delete_self: {
    zh: '超级管理员不能注销自己的账户',
    en: 'The super admin cannot deregister their own account',
  },
  confirm_username_mismatch: {
    zh: '请输入你的账户名以确认删除！',
    en: 'Type your username to confirm the deletion!',
  },
  aff_transfer_min: { zh: '划转金额最低为 {min}', en: 'The minimum transfer is {min}' },
  aff_quota_insufficient: { zh: '邀请额度不足', en: 'Not enough invitation quota' },
  webhook_https_only: {
    zh: 'Webhook 地址必须以 https:// 开头',
    en: 'The webhook URL must start with https://',
  },
  setting_invalid: { zh: '通知设置无效：{reason}', en: 'Invalid notification settings: {reason}' },
  // options
  option_unknown: { zh: '未知的配置项：{key}', en: 'Unknown option: {key}' },
  option_invalid: { zh: '配置项 {key} 的值无效：{reason}', en: 'Invalid value for {key}: {reason}' },
  option_not_json: { zh: '{key} 不是合法的 JSON 字符串', en: '{key} is not a valid JSON string' },
  topup_ratio_not_json: {
    zh: '充值分组倍率不是合法的 JSON 字符串',
    en: 'The top-up group ratio is not a valid JSON string',
  },
  pay_methods_not_json: {
    zh: '充值方式设置不是合法的 JSON 字符串',
    en: 'The payment method setting is not a valid JSON string',
  },
  server_address_required: { zh: '请先填写服务器地址', en: 'Fill in the server address first' },
  domain_invalid: {
    zh: '邮箱域名格式不正确，请输入有效的域名，如 {host}',
    en: 'Invalid email domain; enter a valid domain such as {host}',
  },
  domain_duplicate: { zh: '该域名已存在于白名单中', en: 'The domain is already on the whitelist' },
  well_known_invalid: {
    zh: 'Well-Known URL 必须以 http:// 或 https:// 开头',
    en: 'The Well-Known URL must start with http:// or https://',
  },
  model_price_zero: { zh: '模型价格不能为0', en: 'A model price cannot be 0' },
  // setup
  setup_done: { zh: '系统已经初始化完成', en: 'The system has already been initialized' },
  setup_username_required: { zh: '请输入管理员用户名', en: 'Please enter the admin username' },
  setup_password_short: { zh: '密码长度至少为8个字符', en: 'Password must be at least 8 characters long' },
  setup_password_mismatch: { zh: '两次输入的密码不一致', en: 'The two passwords entered do not match' },
  // relay (model traffic)
  relay_no_key: { zh: '未提供令牌', en: 'No API key provided' },
  relay_invalid_key: { zh: '无效的令牌', en: 'Invalid API key' },
  relay_token_disabled: { zh: '该令牌状态不可用', en: 'This token is disabled' },
  relay_token_expired: { zh: '该令牌已过期', en: 'This token has expired' },
  relay_token_exhausted: { zh: '该令牌额度已用尽', en: 'This token has used up its quota' },
  relay_user_banned: { zh: '用户已被封禁', en: 'The user is banned' },
  relay_model_not_allowed: {
    zh: '该令牌无权访问模型 {model}',
    en: 'This token may not use the model {model}',
  },
  relay_ip_not_allowed: {
    zh: '您的 IP 不在令牌允许访问的列表中',
    en: 'Your IP address is not allowed for this token',
  },
  relay_group_not_allowed: { zh: '无权访问 {group} 分组', en: 'Not allowed to use the group {group}' },
  relay_pin_admin_only: { zh: '普通用户不支持指定渠道', en: 'Only administrators may pin a channel' },
  relay_pinned_channel_missing: {
    zh: '指定的渠道不存在或已禁用',
    en: 'The pinned channel does not exist or is disabled',
  },
  relay_quota_insufficient: { zh: '用户额度不足', en: 'Insufficient user quota' },
  relay_token_quota_insufficient: { zh: '令牌额度不足', en: 'Insufficient token quota' },
  relay_model_required: { zh: '未指定模型名称', en: 'No model specified' },
  relay_model_unpriced: {
    zh: '模型 {model} 倍率或价格未配置，请联系管理员设置或开始自用模式',
    en: 'The model {model} has no price set; ask the administrator to price it or enable self-use mode',
  },
  relay_no_channel: {
    zh: '当前分组 {group} 下对于模型 {model} 无可用渠道',
    en: 'No available channel for model {model} in group {group}',
  },
  relay_mode_unsupported: { zh: '渠道不支持该接口', en: 'The channel does not support this endpoint' },
  relay_bad_body: { zh: '请求体无效：{reason}', en: 'Invalid request body: {reason}' },
  relay_field_unsupported: {
    zh: '请求中的 {field} 无法转换到该渠道的接口格式，请去掉该字段或改用支持它的渠道',
    en: "The request's {field} cannot be carried to this channel's API format; remove it or use a channel that supports it",
  },
  relay_field_not_carried: {
    zh: '请求中的 {field} 无法转换到 {format} 格式的渠道，请去掉该字段或改用支持它的渠道',
    en: "The request's {field} cannot be carried to a channel of the {format} format; remove it or use a channel that supports it",
  },
  relay_sensitive: { zh: '输入包含敏感词：{word}', en: 'The input contains a sensitive word: {word}' },
  relay_rate_limited: {
    zh: '您已达到请求数限制：{minutes} 分钟内最多请求 {count} 次',
    en: 'Request limit reached: at most {count} requests per {minutes} minutes',
  },
  relay_upstream_failed: { zh: '上游服务出错：{reason}', en: 'Upstream error: {reason}' },
  relay_upstream_timeout: { zh: '上游服务响应超时', en: 'The upstream did not answer in time' },
  relay_channel_address_refused: {
    zh: '渠道地址 {host} 是内网或保留地址，已拒绝连接；如需访问（例如本机的 Ollama），请超级管理员开启“允许渠道访问内网地址”（ChannelPrivateAddressesAllowed），或设置环境变量 ALLOW_PRIVATE_OUTBOUND=true',
    en: 'The channel address {host} is private or reserved and was refused; to allow it (a local Ollama, say), root can turn on ChannelPrivateAddressesAllowed, or set ALLOW_PRIVATE_OUTBOUND=true',
  },
  relay_upstream_refused: {
    zh: '上游服务拒绝了网关的凭据（HTTP {status}），请联系管理员检查渠道密钥',
    en: "The upstream refused the gateway's credentials (HTTP {status}); ask the operator to check the channel's key",
  },
  relay_model_cycle: { zh: '模型映射存在循环', en: 'The model mapping has a cycle' },
  relay_not_found: { zh: '模型 {model} 不存在', en: 'The model {model} does not exist' },
  // channels
  channel_not_found: { zh: '渠道不存在，请刷新后重试', en: 'Channel not found, refresh and retry' },
  channel_name_key_required: { zh: '请填写渠道名称和渠道密钥！', en: 'Fill in the channel name and key!' },
  channel_name_required: { zh: '渠道名称不能为空', en: 'The channel name cannot be empty' },
  channel_models_required: { zh: '请至少选择一个模型！', en: 'Select at least one model!' },
  channel_type_invalid: { zh: '未知的渠道类型', en: 'Unknown channel type' },
  channel_json_invalid: { zh: '{field} 必须是合法的 JSON 对象', en: '{field} must be a valid JSON object' },
  channel_base_url_invalid: {
    zh: 'Base URL 必须以 http:// 或 https:// 开头',
    en: 'The base URL must start with http:// or https://',
  },
  channel_priority_invalid: {
    zh: '优先级必须是不小于 -999 的整数',
    en: 'priority must be an integer (minimum -999)',
  },
  channel_weight_invalid: { zh: '权重必须是非负整数', en: 'weight must be a non-negative integer' },
  channel_field_invalid: {
    zh: '渠道字段 {field} 无效：{reason}',
    en: 'Invalid channel field {field}: {reason}',
  },
  channel_field_too_long: {
    zh: '{field} 过长（最多 {max} 个字符）',
    en: '{field} is too long (at most {max} characters)',
  },
  channel_multi_key_unsupported: {
    zh: '不支持多密钥渠道（multi_to_single），请改用批量模式（batch），每个密钥一个渠道',
    en: 'Multi-key channels (multi_to_single) are not supported; use batch mode, one channel per key',
  },
  channel_batch_too_many: {
    zh: '一次最多批量创建 {max} 个渠道',
    en: 'At most {max} channels can be created at once',
  },
  channel_select_first: { zh: '请先选择要删除的渠道！', en: 'Please select channels to delete first!' },
  channel_status_required: {
    zh: '请指定渠道状态：1 启用，2 禁用',
    en: 'Give the channel status: 1 enabled, 2 disabled',
  },
  channel_ids_required: { zh: '请先选择渠道', en: 'Select channels first' },
  channel_tag_required: { zh: '标签不能为空', en: 'The tag cannot be empty' },
  channel_tag_no_changes: { zh: '没有任何修改', en: 'No changes' },
  channel_copy_failed: { zh: '渠道复制失败：{reason}', en: 'Channel copy failed: {reason}' },
  // tokens
  token_not_found: { zh: '令牌不存在', en: 'Token not found' },
  token_name_too_long: {
    zh: '令牌名称过长（最多 {max} 个字符）',
    en: 'The token name is too long (at most {max} characters)',
  },
  token_name_invalid: {
    zh: '令牌名称不能包含控制字符',
    en: 'The token name must not contain control characters',
  },
  token_quota_invalid: {
    zh: '额度必须是 0 到 {max} 之间的整数，不能为负数',
    en: 'Quota must be a whole number from 0 to {max}; it cannot be negative',
  },
  token_expiry_invalid: {
    zh: '过期时间格式错误：应为 -1（永不过期）或未来的时间',
    en: 'Expiry time format error: use -1 (never) or a time in the future',
  },
  token_count_invalid: {
    zh: '创建数量必须是 1 到 {max} 之间的整数',
    en: 'The number of tokens to create must be a whole number from 1 to {max}',
  },
  token_limit_reached: {
    zh: '令牌数量已达上限（每个用户最多 {max} 个）',
    en: 'Token limit reached (at most {max} per user)',
  },
  token_ip_invalid: {
    zh: 'IP 白名单格式错误：{ip}（每行一个 IP 或 CIDR）',
    en: 'Invalid IP allow list entry: {ip} (one IP or CIDR per line)',
  },
  token_group_invalid: { zh: '无权使用分组 {group}', en: 'You may not use the group {group}' },
  token_model_limits_invalid: { zh: '模型限制无效：{reason}', en: 'Invalid model limits: {reason}' },
  token_status_invalid: { zh: '无效的令牌状态', en: 'Invalid token status' },
  token_expired_cannot_enable: {
    zh: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    en: 'The token has expired and cannot be enabled; change its expiry time or make it never expire first',
  },
  token_exhausted_cannot_enable: {
    zh: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    en: 'The token has used up its quota and cannot be enabled; raise its remaining quota or make it unlimited first',
  },
  token_ids_required: { zh: '请先选择令牌', en: 'Select tokens first' },
  // logs
  log_target_required: { zh: '请选择日志记录时间', en: 'Choose a log time' },
  // each area keeps its own messages in messages-<area>.ts
  ...BUDGET_MESSAGES,
  ...CHANNEL_OPS_MESSAGES,
  ...LIMITS_MESSAGES,
  ...LOGS_MESSAGES,
  ...OAUTH_MESSAGES,
  ...SECURITY_MESSAGES,
  ...ACCOUNT_SECURITY_MESSAGES,
  ...TASKS_MESSAGES,
  ...WALLET_MESSAGES,
} as const;

export type MessageKey = keyof typeof MESSAGES;
export type Lang = 'zh' | 'en';

let defaultLang: Lang = 'zh';

/** The language for callers whose Accept-Language names neither Chinese nor English (option DefaultLanguage). */
export function setDefaultLang(lang: Lang): void {
  defaultLang = lang;
}

export function getDefaultLang(): Lang {
  return defaultLang;
}

/**
 * The answer's language from an Accept-Language header: the supported language (zh or en) with the
 * highest quality value, the first listed winning a tie; the operator's default when none is named.
 */
export function pickLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return defaultLang;
  let best: Lang | null = null;
  let bestQ = 0;
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...attrs] = part.trim().toLowerCase().split(';');
    const lang: Lang | null = tag.startsWith('en') ? 'en' : tag.startsWith('zh') ? 'zh' : null;
    if (!lang) continue;
    const qAttr = attrs.map((a) => a.trim()).find((a) => a.startsWith('q='));
    const q = qAttr ? Number(qAttr.slice(2)) : 1;
    if (Number.isFinite(q) && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best ?? defaultLang;
}

export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

export function translate(key: MessageKey, lang: Lang, params: Record<string, unknown> = {}): string {
  const template: string = MESSAGES[key][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    name in params ? String(params[name]) : `{${name}}`,
  );
}

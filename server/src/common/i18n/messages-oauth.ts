/** Messages of the oauth area, in Chinese (the default) and English; merged into MESSAGES. */
export const OAUTH_MESSAGES = {
  oauth_disabled: {
    zh: '管理员未开启通过 {provider} 登录以及注册',
    en: 'The administrator has not enabled sign-in and sign-up with {provider}',
  },
  oauth_not_configured: {
    zh: '管理员尚未完成 {provider} 登录的配置',
    en: 'Sign-in with {provider} is not fully configured by the administrator',
  },
  oauth_provider_unknown: { zh: '不支持的登录方式', en: 'Unsupported sign-in provider' },
  oauth_code_missing: {
    zh: '缺少授权码，请重新登录',
    en: 'The authorization code is missing; sign in again',
  },
  oauth_state_invalid: {
    zh: '授权状态无效或已被使用，请重新登录',
    en: 'The sign-in state is invalid or was already used; sign in again',
  },
  oauth_state_expired: {
    zh: '授权状态已过期，请重新登录',
    en: 'The sign-in state has expired; sign in again',
  },
  oauth_state_mismatch: {
    zh: '授权状态与当前浏览器会话不匹配，请重新登录',
    en: 'The sign-in state does not belong to this browser session; sign in again',
  },
  oauth_exchange_failed: {
    zh: '{provider} 授权失败，请重新登录',
    en: 'Authorization with {provider} failed; sign in again',
  },
  oauth_profile_invalid: {
    zh: '{provider} 返回的用户信息无效',
    en: '{provider} returned an invalid user profile',
  },
  oidc_id_token_invalid: {
    zh: 'OIDC 身份令牌校验失败，请重新登录',
    en: 'The OIDC ID token failed validation; sign in again',
  },
  oidc_discovery_failed: {
    zh: '无法获取 OIDC 配置，请检查 Well-Known URL',
    en: 'Could not load the OIDC configuration; check the Well-Known URL',
  },
  oauth_bound_elsewhere: {
    zh: '该 {provider} 账户已被其他用户绑定',
    en: 'This {provider} account is already bound to another user',
  },
  oauth_user_banned: { zh: '用户已被封禁', en: 'This user has been banned' },
  oauth_user_deleted: { zh: '用户已注销', en: 'This account has been deregistered' },
  oauth_username_unavailable: {
    zh: '无法为新用户生成用户名，请稍后重试',
    en: 'Could not generate a username for the new account; try again',
  },
  linuxdo_trust_level_low: {
    zh: 'LinuxDO 信任等级未达到管理员设置的最低信任等级 {level}',
    en: 'Your LinuxDO trust level is below the minimum ({level}) the administrator set',
  },
  linuxdo_user_inactive: {
    zh: 'LinuxDO 账户未激活或已被禁言',
    en: 'The LinuxDO account is not active or is silenced',
  },
  wechat_code_invalid: { zh: '验证码错误或已过期', en: 'The code is wrong or has expired' },
  wechat_server_failed: {
    zh: '无法连接微信登录服务器，请稍后重试',
    en: 'Could not reach the WeChat sign-in server; try again later',
  },
  telegram_hash_invalid: {
    zh: 'Telegram 登录数据校验失败',
    en: 'The Telegram sign-in data failed verification',
  },
  telegram_auth_expired: {
    zh: 'Telegram 登录数据已过期，请重新登录',
    en: 'The Telegram sign-in data has expired; sign in again',
  },
  telegram_auth_used: {
    zh: 'Telegram 登录数据已被使用，请重新登录',
    en: 'The Telegram sign-in data was already used; sign in again',
  },
  telegram_not_bound: {
    zh: '该 Telegram 账户未绑定任何用户，请先登录后在个人设置中绑定',
    en: 'This Telegram account is not bound to any user; sign in and bind it in your personal settings first',
  },
  telegram_bind_state_required: {
    zh: '绑定请求缺少有效的授权状态，请从个人设置页面重新绑定',
    en: 'The bind request has no valid state; start binding again from your personal settings',
  },
} as const;

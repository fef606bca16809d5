/** Messages of the logs area, in Chinese (the default) and English; merged into MESSAGES. */
export const LOGS_MESSAGES = {
  log_param_invalid: {
    zh: '查询参数 {field} 无效：{reason}',
    en: 'Invalid query parameter {field}: {reason}',
  },
  log_token_required: {
    zh: '请提供令牌（Authorization: Bearer sk-… 或 ?key=）',
    en: 'Provide a token (Authorization: Bearer sk-… or ?key=)',
  },
  log_token_invalid: { zh: '无效的令牌', en: 'Invalid token' },
  log_token_disabled: { zh: '该令牌已被禁用', en: 'This token is disabled' },
  log_token_user_unavailable: {
    zh: '该令牌的用户已被封禁或注销',
    en: "The token's user is banned or deregistered",
  },
  data_granularity_invalid: {
    zh: '时间粒度必须是 hour、day 或 week',
    en: 'The time granularity must be hour, day or week',
  },
} as const;

/** Messages of the per-channel and per-token limits, in Chinese (the default) and English; merged into MESSAGES. */
export const LIMITS_MESSAGES = {
  limit_field_invalid: {
    zh: '{field} 必须是 0 到 {max} 之间的整数（0 表示不限制）',
    en: '{field} must be a whole number from 0 to {max} (0 means no limit)',
  },
  relay_token_rpm_limited: {
    zh: '该令牌请求过于频繁：每分钟最多 {limit} 次请求，请稍后再试',
    en: 'This token made too many requests: at most {limit} per minute, try again later',
  },
  relay_token_tpm_limited: {
    zh: '该令牌用量过快：每分钟最多 {limit} 个 token，请稍后再试',
    en: 'This token used too many tokens: at most {limit} per minute, try again later',
  },
  relay_token_concurrency_limited: {
    zh: '该令牌同时进行的请求过多：最多 {limit} 个，请等待已有请求完成',
    en: 'Too many requests in progress for this token: at most {limit} at a time, wait for one to finish',
  },
  relay_channels_busy: {
    zh: '当前分组 {group} 下模型 {model} 的渠道均已达到速率或并发限制，请稍后再试',
    en: 'Every channel for model {model} in group {group} is at its rate or concurrency limit, try again later',
  },
} as const;

/** Messages of request hardening, in Chinese (the default) and English; merged into MESSAGES. */
export const SECURITY_MESSAGES = {
  json_too_deep: {
    zh: '请求体 JSON 嵌套过深（最多 {max} 层）',
    en: 'The request body JSON is nested too deeply (at most {max} levels)',
  },
} as const;

/**
 * The SDK families the relay records as a call's `client_type` (log details, the channel's upstream
 * detection), named in each console language. An unknown value is shown as recorded.
 */
export const CLIENT_TYPE_LABELS = {
  zh: {
    'openai-node': 'OpenAI Node.js 库',
    'openai-python': 'OpenAI Python 库',
    anthropic: 'Anthropic 库',
    curl: 'curl 命令行',
    other: '其他客户端',
  },
  en: {
    'openai-node': 'OpenAI Node.js library',
    'openai-python': 'OpenAI Python library',
    anthropic: 'Anthropic library',
    curl: 'curl',
    other: 'Other client',
  },
} as const;

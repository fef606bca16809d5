import type { LocaleBundles } from '@gatehouse/console-kit';

export const HOST_NAMESPACE = 'host';

export const hostLocales = {
  zh: {
    home: {
      welcome: '欢迎使用 {{name}}',
      tagline: '自托管的 AI 模型 API 网关',
      version: '版本：{{version}}',
      startedAt: '启动时间：{{time}}',
    },
  },
  en: {
    home: {
      welcome: 'Welcome to {{name}}',
      tagline: 'A self-hosted gateway for AI model APIs',
      version: 'Version: {{version}}',
      startedAt: 'Started at: {{time}}',
    },
  },
} satisfies LocaleBundles;

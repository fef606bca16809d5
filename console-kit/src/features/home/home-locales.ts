import type { LocaleBundles } from '../../provider/console-i18n';

export const HOME_NAMESPACE = 'home';

export const homeLocales = {
  zh: {
    welcome: '欢迎使用 {{name}}',
    tagline: '自托管的 AI 模型 API 网关',
    version: '版本：{{version}}',
    startedAt: '启动时间：{{time}}',
    openConsole: '进入控制台',
    login: '登录',
    docs: '文档',
    frameTitle: '首页',
    loadFailed: '加载首页内容失败',
  },
  en: {
    welcome: 'Welcome to {{name}}',
    tagline: 'A self-hosted gateway for AI model APIs',
    version: 'Version: {{version}}',
    startedAt: 'Started at: {{time}}',
    openConsole: 'Open the console',
    login: 'Log in',
    docs: 'Docs',
    frameTitle: 'Home page',
    loadFailed: 'Failed to load the home page content',
  },
} satisfies LocaleBundles;

import type { LocaleBundles } from '../../provider/console-i18n';

export const CHAT_NAMESPACE = 'chat';

export const chatLocales = {
  zh: {
    loading: '正在加载聊天页面…',
    redirecting: '正在跳转…',
    frameTitle: '聊天',
    configError: '聊天链接配置错误，请联系管理员',
    notConfigured: '请联系管理员配置聊天链接',
    parseFailed: '聊天数据解析失败',
    noEnabledToken: '没有可用的已启用令牌，请确认是否有令牌处于启用状态！',
    openInNewTab: '在新标签页打开',
  },
  en: {
    loading: 'Loading the chat page…',
    redirecting: 'Redirecting…',
    frameTitle: 'Chat',
    configError: 'Chat link config error, please contact the admin',
    notConfigured: 'Please ask the admin to configure chat links',
    parseFailed: 'Chat data parse failed',
    noEnabledToken: 'No enabled token available, please confirm a token is enabled!',
    openInNewTab: 'Open in a new tab',
  },
} satisfies LocaleBundles;

import type { LocaleBundles } from '../console-i18n';

/** Strings shared by every feature: request errors, the shell, the not-found page. */
export const commonLocales = {
  zh: {
    errors: {
      tooManyRequests: '错误：请求次数过多，请稍后再试！',
      serverError: '错误：服务器内部错误，请联系管理员！',
      sessionExpired: '未登录或登录已过期，请重新登录',
      network: '无法连接到服务器',
      withMessage: '错误：{{message}}',
      requestFailed: '请求失败',
    },
    status: {
      loadFailed: '加载状态失败',
    },
    shell: {
      language: '语言',
      languageZh: '中文',
      languageEn: 'English',
      toLightTheme: '切换到浅色主题',
      toDarkTheme: '切换到深色主题',
      login: '登录',
      logout: '退出',
      logoutSuccess: '注销成功！',
      accountMenu: '账户菜单',
      selfUseMode: '自用模式',
      demoSite: '演示站点',
    },
    notFound: {
      message: '页面不存在，请检查地址',
      backHome: '返回首页',
    },
  },
  en: {
    errors: {
      tooManyRequests: 'Error: too many requests, please try again later!',
      serverError: 'Error: internal server error, please contact the administrator!',
      sessionExpired: 'Not logged in or session expired. Please login again!',
      network: 'Unable to connect to server',
      withMessage: 'Error: {{message}}',
      requestFailed: 'Request failed',
    },
    status: {
      loadFailed: 'Failed to load status',
    },
    shell: {
      language: 'Language',
      languageZh: '中文',
      languageEn: 'English',
      toLightTheme: 'Switch to light theme',
      toDarkTheme: 'Switch to dark theme',
      login: 'Log in',
      logout: 'Log out',
      logoutSuccess: 'Logout successful!',
      accountMenu: 'Account menu',
      selfUseMode: 'Self-use mode',
      demoSite: 'Demo site',
    },
    notFound: {
      message: 'page does not exist, check the address',
      backHome: 'Back to home',
    },
  },
} satisfies LocaleBundles;

import type { LocaleBundles } from '../provider/console-i18n';

export const OAUTH_NAMESPACE = 'oauth';

export const oauthLocales = {
  zh: {
    processing: '处理中…',
    failedToLogin: '操作失败，重定向至登录界面中…',
    failedToPersonal: '操作失败，正在返回个人设置…',
    bindSuccess: '绑定成功！',
    loginSuccess: '登录成功！',
    unknownProvider: '不支持的登录方式',
    missingCode: '缺少授权码，请重新发起登录',
  },
  en: {
    processing: 'Processing…',
    failedToLogin: 'Operation failed, redirecting to login page…',
    failedToPersonal: 'Operation failed, going back to personal settings…',
    bindSuccess: 'Binding successful!',
    loginSuccess: 'Login successful!',
    unknownProvider: 'This sign-in method is not supported',
    missingCode: 'The provider sent no authorization code; please start again',
  },
} satisfies LocaleBundles;

import type { LocaleBundles } from '../../provider/console-i18n';

export const RESET_NAMESPACE = 'reset';

export const resetLocales = {
  zh: {
    request: {
      title: '密码重置',
      email: '邮箱地址',
      submit: '提交',
      retryIn: '重试 ({{seconds}})',
      sent: '重置邮件发送成功，请检查邮箱！',
      emailRequired: '请输入邮箱！',
      emailInvalid: '邮箱格式不正确',
      backToLogin: '返回登录',
    },
    confirm: {
      title: '密码重置确认',
      email: '邮箱地址',
      submit: '确认重置密码',
      invalidLink: '无效的链接，请重新申请密码重置',
      done: '密码已重置并已复制到剪贴板',
      newPassword: '新密码',
      newPasswordHint: '请用新密码登录，并尽快在个人设置中修改。',
      copy: '复制新密码',
      toLogin: '去登录',
    },
  },
  en: {
    request: {
      title: 'Reset password',
      email: 'Email address',
      submit: 'Submit',
      retryIn: 'Retry ({{seconds}})',
      sent: 'Reset email sent, please check your mailbox!',
      emailRequired: 'Please enter the email address!',
      emailInvalid: 'The email address is not valid',
      backToLogin: 'Back to sign in',
    },
    confirm: {
      title: 'Confirm password reset',
      email: 'Email address',
      submit: 'Reset my password',
      invalidLink: 'This link is not valid; please ask for a new password reset',
      done: 'The password was reset and copied to the clipboard',
      newPassword: 'New password',
      newPasswordHint: 'Sign in with the new password and change it soon in personal settings.',
      copy: 'Copy the new password',
      toLogin: 'Sign in',
    },
  },
} satisfies LocaleBundles;

import type { LocaleBundles } from '../provider/console-i18n';

export const AUTH_NAMESPACE = 'auth';

export const authLocales = {
  zh: {
    login: {
      title: '登录',
      username: '用户名/邮箱',
      password: '密码',
      submit: '登录',
      submitting: '正在登录…',
      required: '请输入用户名和密码！',
      success: '登录成功！',
      failed: '登录失败',
      expired: '未登录或登录已过期，请重新登录',
      defaultPassword: '您正在使用默认密码！请立刻修改默认密码！',
      passwordLoginDisabled: '管理员已关闭密码登录，请使用下方的其他方式登录。',
      noAccount: '没有账户？',
      register: '注册',
      forgot: '忘记密码？',
      reset: '重置密码',
    },
    thirdParty: {
      divider: '或',
      github: '使用 GitHub 登录',
      oidc: '使用 OIDC 登录',
      linuxdo: '使用 LinuxDO 登录',
      wechat: '使用微信扫码登录',
    },
    wechat: {
      loginTitle: '微信扫码登录',
      bindTitle: '绑定微信账户',
      qrAlt: '公众号二维码',
      instructions: '微信扫码关注公众号，输入「验证码」获取验证码（三分钟内有效）',
      code: '验证码',
      codeRequired: '请输入验证码',
    },
  },
  en: {
    login: {
      title: 'Sign in',
      username: 'Username or email',
      password: 'Password',
      submit: 'Sign in',
      submitting: 'Signing in…',
      required: 'Please enter username and password!',
      success: 'Login successful!',
      failed: 'Login failed',
      expired: 'Not logged in or session expired. Please login again!',
      defaultPassword: 'You are using the default password! Change it right away!',
      passwordLoginDisabled: 'The administrator turned password sign-in off; use one of the ways below.',
      noAccount: 'No account?',
      register: 'Register',
      forgot: 'Forgot the password?',
      reset: 'Reset it',
    },
    thirdParty: {
      divider: 'or',
      github: 'Sign in with GitHub',
      oidc: 'Sign in with OIDC',
      linuxdo: 'Sign in with LinuxDO',
      wechat: 'Sign in with WeChat (scan code)',
    },
    wechat: {
      loginTitle: 'WeChat scan-code sign-in',
      bindTitle: 'Bind a WeChat account',
      qrAlt: 'Official account QR code',
      instructions:
        'Scan the QR code with WeChat, follow the official account and send "验证码" to get a code (valid for 3 minutes)',
      code: 'Verification code',
      codeRequired: 'Please enter the verification code',
    },
  },
} satisfies LocaleBundles;

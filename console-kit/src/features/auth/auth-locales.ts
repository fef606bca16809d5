import type { LocaleBundles } from '../../provider/console-i18n';

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
    },
  },
} satisfies LocaleBundles;

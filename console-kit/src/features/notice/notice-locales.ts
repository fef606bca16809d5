import type { LocaleBundles } from '../../provider/console-i18n';

export const NOTICE_NAMESPACE = 'notice';

export const noticeLocales = {
  zh: {
    title: '系统公告',
    close: '关闭',
    closeToday: '今日关闭',
  },
  en: {
    title: 'Notice',
    close: 'Close',
    closeToday: 'Close for today',
  },
} satisfies LocaleBundles;

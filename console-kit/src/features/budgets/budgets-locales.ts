import type { LocaleBundles } from '../../provider/console-i18n';

export const BUDGETS_NAMESPACE = 'budgets';

export const budgetsLocales = {
  zh: {
    title: '周期预算',
    help: '按自然日、自然周（周一起）和自然月限制额度和请求次数，时区为系统设置的时区；0 表示不限制。',
    periods: { day: '每日', week: '每周', month: '每月' },
    current: { day: '今日', week: '本周', month: '本月' },
    quota: '额度上限',
    requests: '请求次数上限',
    quotaHelp: '约 {{value}}',
    invalid: '{{field}} 必须是 0 或正整数',
    usage: {
      quota: '额度 {{used}} / {{cap}}',
      requests: '请求 {{used}} / {{cap}} 次',
      resets: '{{resets}}（{{zone}}）重置',
      none: '未设置周期预算',
      user: '我的预算',
      group: '分组 {{group}} 的预算',
    },
    groups: {
      title: '分组周期预算',
      help: '分组预算由该分组内的所有调用共享（按调用计费的分组计算）。',
      group: '分组',
      add: '添加分组预算',
      remove: '删除',
      save: '保存分组预算',
      saved: '分组预算已保存',
      invalidGroup: '分组名不能为空、重复或超过 64 个字符：{{group}}',
      noticePercent: '预算提醒阈值（%）',
      noticeHelp: '令牌或用户的额度预算用到该百分比时，按用户的通知设置发送提醒；0 表示关闭。',
      noticeInvalid: '提醒阈值必须是 0 到 100 之间的整数',
    },
  },
  en: {
    title: 'Periodic budgets',
    help: 'Caps on quota and requests per calendar day, week (from Monday) and month, in the configured time zone; 0 means no cap.',
    periods: { day: 'Daily', week: 'Weekly', month: 'Monthly' },
    current: { day: 'Today', week: 'This week', month: 'This month' },
    quota: 'Quota cap',
    requests: 'Request cap',
    quotaHelp: 'about {{value}}',
    invalid: '{{field}} must be 0 or a whole number',
    usage: {
      quota: 'Quota {{used}} / {{cap}}',
      requests: 'Requests {{used}} / {{cap}}',
      resets: 'resets {{resets}} ({{zone}})',
      none: 'No periodic budget',
      user: 'My budget',
      group: 'Budget of group {{group}}',
    },
    groups: {
      title: 'Group budgets',
      help: 'A group budget is shared by every call served in the group (the group the call is priced in).',
      group: 'Group',
      add: 'Add a group budget',
      remove: 'Remove',
      save: 'Save group budgets',
      saved: 'Group budgets saved',
      invalidGroup: 'A group name must be set, unique and at most 64 characters: {{group}}',
      noticePercent: 'Budget notice threshold (%)',
      noticeHelp:
        "When a token's or user's quota budget reaches this percentage, the user is notified by their notification setting; 0 turns it off.",
      noticeInvalid: 'The notice threshold must be a whole number from 0 to 100',
    },
  },
} satisfies LocaleBundles;

import type { LocaleBundles } from '../../provider/console-i18n';

export const REPORTS_NAMESPACE = 'reports';

export const reportsLocales = {
  zh: {
    title: '用量报表',
    loadFailed: '加载报表失败',
    empty: '所选范围内没有消费记录',
    timeZone: '时区：{{value}}',
    filters: {
      range: '时间范围',
      start: '开始时间',
      end: '结束时间',
      period: '周期',
      groupBy: '维度',
      tokenName: '令牌名称',
      modelName: '模型名称',
      group: '分组',
      username: '用户名称',
      query: '查询',
    },
    period: { day: '按日', week: '按周（周一起）', month: '按月' },
    dimension: { model: '模型', user: '用户', token: '令牌', group: '分组', channel: '渠道' },
    columns: {
      period: '周期',
      key: '名称',
      requests: '请求数',
      quota: '消耗',
      prompt: '输入 tokens',
      completion: '输出 tokens',
    },
    totals: '合计',
    channelGone: '渠道 #{{id}}（已删除）',
    export: {
      failed: '导出失败：{{message}}',
      reportCsv: '下载 CSV',
    },
  },
  en: {
    title: 'Usage reports',
    loadFailed: 'Could not load the report',
    empty: 'No consumption in the chosen range',
    timeZone: 'Time zone: {{value}}',
    filters: {
      range: 'Time range',
      start: 'Start',
      end: 'End',
      period: 'Period',
      groupBy: 'By',
      tokenName: 'Token name',
      modelName: 'Model name',
      group: 'Group',
      username: 'User name',
      query: 'Query',
    },
    period: { day: 'Daily', week: 'Weekly (from Monday)', month: 'Monthly' },
    dimension: { model: 'Model', user: 'User', token: 'Token', group: 'Group', channel: 'Channel' },
    columns: {
      period: 'Period',
      key: 'Name',
      requests: 'Requests',
      quota: 'Spend',
      prompt: 'Prompt tokens',
      completion: 'Completion tokens',
    },
    totals: 'Total',
    channelGone: 'Channel #{{id}} (deleted)',
    export: {
      failed: 'Export failed: {{message}}',
      reportCsv: 'Download CSV',
    },
  },
} satisfies LocaleBundles;

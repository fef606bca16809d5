import type { LocaleBundles } from '../../provider/console-i18n';

export const DASHBOARD_NAMESPACE = 'dashboard';

export const dashboardLocales = {
  zh: {
    title: '数据看板',
    loadFailed: '加载数据失败',
    exportOff: '数据看板未开启，管理员可以在运营设置中开启（已记录的数据仍可查看）。',
    filters: {
      range: '时间范围',
      start: '开始时间',
      end: '结束时间',
      granularity: '时间粒度',
      modelName: '模型名称',
      username: '用户名称',
      usernameHelp: '留空查看全部用户',
      query: '查询',
      reset: '重置',
    },
    granularity: { hour: '小时', day: '天', week: '周' },
    totals: {
      quota: '消耗额度',
      count: '请求次数',
      tokens: 'Token 数量',
      average: '平均每次请求消耗',
    },
    charts: {
      quota: '消耗额度趋势',
      count: '请求次数趋势',
      tokens: 'Token 用量趋势',
      share: '模型消耗分布',
      loading: '正在加载数据…',
      noData: '暂无数据',
    },
    table: {
      model: '模型',
      quota: '消耗额度',
      count: '请求次数',
      tokens: 'Token 数量',
    },
    viewing: {
      all: '全部用户',
      self: '我的用量',
      user: '用户：{{username}}',
    },
    empty: '该时间范围内没有数据',
  },
  en: {
    title: 'Dashboard',
    loadFailed: 'Failed to load the data',
    exportOff:
      'The data dashboard is not enabled; an administrator can enable it in the operation settings (data already recorded stays visible).',
    filters: {
      range: 'Time range',
      start: 'Start time',
      end: 'End time',
      granularity: 'Granularity',
      modelName: 'Model name',
      username: 'Username',
      usernameHelp: 'Leave empty for every user',
      query: 'Query',
      reset: 'Reset',
    },
    granularity: { hour: 'Hour', day: 'Day', week: 'Week' },
    totals: {
      quota: 'Quota used',
      count: 'Requests',
      tokens: 'Tokens',
      average: 'Average cost per request',
    },
    charts: {
      quota: 'Quota used over time',
      count: 'Requests over time',
      tokens: 'Tokens over time',
      share: 'Consumption by model',
      loading: 'Loading data…',
      noData: 'No data to display',
    },
    table: {
      model: 'Model',
      quota: 'Quota used',
      count: 'Requests',
      tokens: 'Tokens',
    },
    viewing: {
      all: 'All users',
      self: 'My usage',
      user: 'User: {{username}}',
    },
    empty: 'No data in this time range',
  },
} satisfies LocaleBundles;

/** Messages of the channel operations (tests, balances, upstream model lists), in Chinese and English. */
export const CHANNEL_OPS_MESSAGES = {
  channel_ops_test_started: {
    zh: '已开始测试所有渠道，请稍后刷新查看结果',
    en: 'Testing all channels; refresh later to see the results',
  },
  channel_ops_test_running: {
    zh: '已有渠道测试正在进行，请稍后再试',
    en: 'A channel test run is already in progress; try again later',
  },
  channel_ops_balance_started: {
    zh: '已开始更新所有渠道余额，请稍后刷新查看结果',
    en: 'Updating all channel balances; refresh later to see the results',
  },
  channel_ops_balance_running: {
    zh: '已有余额更新正在进行，请稍后再试',
    en: 'A balance update is already in progress; try again later',
  },
  channel_ops_balance_unsupported: {
    zh: '渠道类型 {type} 不支持查询余额',
    en: 'Channel type {type} has no balance query',
  },
  channel_ops_models_unsupported: {
    zh: '渠道类型 {type} 不支持获取模型列表',
    en: 'Channel type {type} cannot list its models',
  },
  channel_ops_address_blocked: {
    zh: '出于安全考虑，不允许访问内网地址 {host}；如需访问，请超级管理员开启“允许渠道访问内网地址”（ChannelPrivateAddressesAllowed），或设置环境变量 ALLOW_PRIVATE_OUTBOUND=true',
    en: 'For safety, the private address {host} may not be contacted; root can allow it with ChannelPrivateAddressesAllowed, or set ALLOW_PRIVATE_OUTBOUND=true',
  },
  channel_ops_upstream_unreachable: {
    zh: '无法连接上游：{reason}',
    en: 'Cannot reach the upstream: {reason}',
  },
  channel_ops_upstream_status: {
    zh: '上游返回状态码 {status}：{body}',
    en: 'The upstream answered status {status}: {body}',
  },
  channel_ops_upstream_answer: {
    zh: '上游返回格式不正确（{field}）',
    en: 'Unexpected upstream answer ({field})',
  },
} as const;

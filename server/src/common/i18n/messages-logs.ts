/** Messages of the logs area, in Chinese (the default) and English; merged into MESSAGES. */
export const LOGS_MESSAGES = {
  log_param_invalid: {
    zh: '查询参数 {field} 无效：{reason}',
    en: 'Invalid query parameter {field}: {reason}',
  },
  log_token_required: {
    zh: '请提供令牌（Authorization: Bearer sk-… 或 ?key=）',
    en: 'Provide a token (Authorization: Bearer sk-… or ?key=)',
  },
  log_token_invalid: { zh: '无效的令牌', en: 'Invalid token' },
  content_log_not_found: { zh: '这条日志没有保存的请求内容', en: 'This log row has no stored content' },
  content_log_view_forbidden: {
    zh: '管理员未允许用户查看自己的请求内容',
    en: 'The operator does not let users view their own request content',
  },
  content_log_enabled_invalid: { zh: 'enabled 必须是 true 或 false', en: 'enabled must be true or false' },
  content_log_path_invalid: { zh: '脱敏路径无效：{reason}', en: 'Invalid redaction path: {reason}' },
  log_token_disabled: { zh: '该令牌已被禁用', en: 'This token is disabled' },
  log_token_user_unavailable: {
    zh: '该令牌的用户已被封禁或注销',
    en: "The token's user is banned or deregistered",
  },
  data_granularity_invalid: {
    zh: '时间粒度必须是 hour、day 或 week',
    en: 'The time granularity must be hour, day or week',
  },
  // Log texts: stored as key + parameters and rendered in the reader's language (log-text.ts).
  log_text_in_progress: { zh: '进行中', en: 'In progress' },
  log_text_call_interrupted: {
    zh: '已中断：网关在这次调用结束前停止；已退还预扣的 {quota} 额度',
    en: 'Interrupted: the gateway stopped before this call finished; {quota} reserved quota refunded',
  },
  log_text_task_refunded: {
    zh: '{what} 失败：{reason}；已退还 {quota} 额度',
    en: '{what} failed: {reason}; {quota} quota refunded',
  },
  log_text_task_refunded_no_reason: {
    zh: '{what} 失败（原因未知）；已退还 {quota} 额度',
    en: '{what} failed for an unknown reason; {quota} quota refunded',
  },
  log_text_channel_auto_disabled: {
    zh: '渠道 #{id}（{name}）已被自动禁用：{reason}',
    en: 'Channel #{id} ({name}) was disabled automatically: {reason}',
  },
  log_text_channel_auto_enabled: {
    zh: '渠道 #{id}（{name}）测试通过，已被自动启用',
    en: 'Channel #{id} ({name}) passed its test and was enabled again automatically',
  },
  log_text_logs_deleted: {
    zh: '清理日志：删除 {before} 之前的 {count} 条日志（{actor}）',
    en: 'Log clean-up: deleted {count} logs written before {before} ({actor})',
  },
  log_text_user_created: { zh: '管理员创建了用户（{actor}）', en: 'An admin created the user ({actor})' },
  log_text_user_updated: {
    zh: '管理员修改了用户信息：{fields}（{actor}）',
    en: 'An admin changed the user: {fields} ({actor})',
  },
  log_text_user_quota_set: {
    zh: '管理员将用户额度调整 {amount}（{actor}）',
    en: "An admin adjusted the user's quota by {amount} ({actor})",
  },
  log_text_user_quota_added: {
    zh: '管理员为用户增加额度 {amount}（{actor}）',
    en: "An admin added {amount} to the user's quota ({actor})",
  },
  log_text_user_quota_subtracted: {
    zh: '管理员为用户扣减额度 {amount}（{actor}）',
    en: "An admin subtracted {amount} from the user's quota ({actor})",
  },
  log_text_user_quota_overridden: {
    zh: '管理员将用户额度从 {from} 设为 {to}（{actor}）',
    en: "An admin set the user's quota from {from} to {to} ({actor})",
  },
  log_text_user_promoted: { zh: '提升为管理员（{actor}）', en: 'Promoted to admin ({actor})' },
  log_text_user_demoted: { zh: '降级为普通用户（{actor}）', en: 'Demoted to ordinary user ({actor})' },
  log_text_user_disabled: { zh: '禁用用户（{actor}）', en: 'User disabled ({actor})' },
  log_text_user_enabled: { zh: '启用用户（{actor}）', en: 'User enabled ({actor})' },
  log_text_user_deleted: { zh: '注销用户（{actor}）', en: 'User deregistered ({actor})' },
  log_text_aff_transfer: {
    zh: '邀请额度划转 {amount}',
    en: 'Moved {amount} of invitation rewards to the balance',
  },
  log_text_aff_reward: {
    zh: '邀请用户 {invitee} 注册，奖励邀请额度 {amount}',
    en: 'Invited {invitee} to sign up: invitation reward {amount}',
  },
  log_text_register_bonus: { zh: '新用户注册赠送 {amount}', en: 'Sign-up bonus {amount}' },
  log_text_invitee_bonus: { zh: '使用邀请码赠送 {amount}', en: 'Invitation code bonus {amount}' },
  log_text_redeemed: {
    zh: '通过兑换码充值 {amount}，兑换码ID {id}',
    en: 'Topped up {amount} with redemption code ID {id}',
  },
  log_text_topup_paid: {
    zh: '使用在线充值成功，充值额度: {amount}，支付金额：{money}',
    en: 'Online top-up succeeded: {amount} credited, {money} paid',
  },
  log_text_topup_completed: {
    zh: '管理员补单成功，充值额度: {amount}，支付金额：{money}（{actor}）',
    en: 'An admin completed the order: {amount} credited, {money} paid ({actor})',
  },
  log_text_channel_created: {
    zh: '创建渠道 {ids}（{name}）（{actor}）',
    en: 'Created channel {ids} ({name}) ({actor})',
  },
  log_text_channel_updated: {
    zh: '更新渠道 #{id}（{name}）：{fields}（{actor}）',
    en: 'Updated channel #{id} ({name}): {fields} ({actor})',
  },
  log_text_channel_deleted: { zh: '删除渠道 #{id}（{actor}）', en: 'Deleted channel #{id} ({actor})' },
  log_text_channels_disabled_deleted: {
    zh: '删除所有已禁用的渠道，共 {count} 个（{actor}）',
    en: 'Deleted every disabled channel: {count} ({actor})',
  },
  log_text_channels_deleted: {
    zh: '批量删除渠道 {count} 个（{actor}）',
    en: 'Deleted {count} channels ({actor})',
  },
  log_text_channel_copied: {
    zh: '复制渠道 #{id} 为 #{copy}（{actor}）',
    en: 'Copied channel #{id} to #{copy} ({actor})',
  },
  log_text_tag_enabled: {
    zh: '启用标签 {tag} 的 {count} 个渠道（{actor}）',
    en: 'Enabled {count} channels tagged {tag} ({actor})',
  },
  log_text_tag_disabled: {
    zh: '禁用标签 {tag} 的 {count} 个渠道（{actor}）',
    en: 'Disabled {count} channels tagged {tag} ({actor})',
  },
  log_text_tag_edited: {
    zh: '编辑标签 {tag} 的 {count} 个渠道：{fields}（{actor}）',
    en: 'Edited {count} channels tagged {tag}: {fields} ({actor})',
  },
  log_text_tag_set: {
    zh: '为 {count} 个渠道设置标签 {tag}（{actor}）',
    en: 'Set the tag {tag} on {count} channels ({actor})',
  },
} as const;

/** Messages of the wallet area, in Chinese (the default) and English; merged into MESSAGES. */
export const WALLET_MESSAGES = {
  // redemption codes (admin)
  redemption_not_found: { zh: '兑换码不存在', en: 'Redemption code not found' },
  redemption_name_length: {
    zh: '兑换码名称长度必须在1-20之间',
    en: 'The redemption code name must be 1 to 20 characters long',
  },
  redemption_name_invalid: {
    zh: '兑换码名称不能包含控制字符',
    en: 'The redemption code name must not contain control characters',
  },
  redemption_quota_invalid: {
    zh: '额度必须是大于 0 的整数（最大 {max}）',
    en: 'Quota must be a whole number greater than 0 (at most {max})',
  },
  redemption_count_min: { zh: '兑换码个数必须大于0', en: 'The number of codes must be greater than 0' },
  redemption_count_max: {
    zh: '一次兑换码批量生成的个数不能大于 {max}',
    en: 'At most {max} codes can be generated at once',
  },
  redemption_count_invalid: {
    zh: '兑换码个数必须是整数',
    en: 'The number of codes must be a whole number',
  },
  redemption_expiry_invalid: {
    zh: '过期时间不能早于当前时间（0 表示永不过期）',
    en: 'The expiry time cannot be earlier than now (0 means never)',
  },
  redemption_status_invalid: {
    zh: '无效的兑换码状态（1 启用，2 禁用）',
    en: 'Invalid redemption code status (1 enabled, 2 disabled)',
  },
  redemption_only_unused_editable: {
    zh: '只有未使用的兑换码可以编辑',
    en: 'Only unused redemption codes can be edited',
  },
  redemption_used_locked: {
    zh: '已使用的兑换码不能启用或禁用',
    en: 'A used redemption code cannot be enabled or disabled',
  },
  // redeeming (users)
  redemption_key_required: { zh: '请输入兑换码！', en: 'Please enter the redemption code!' },
  redemption_invalid: { zh: '无效的兑换码', en: 'Invalid redemption code' },
  redemption_used: { zh: '该兑换码已被使用', en: 'This redemption code has already been used' },
  redemption_disabled: { zh: '该兑换码已被禁用', en: 'This redemption code has been disabled' },
  redemption_expired: { zh: '该兑换码已过期', en: 'This redemption code has expired' },
  wallet_balance_overflow: {
    zh: '充值后的余额超出系统上限',
    en: 'The balance would exceed the largest amount the system can hold',
  },
  // online top-up
  topup_amount_invalid: {
    zh: '充值数量必须是正整数',
    en: 'The top-up amount must be a positive whole number',
  },
  topup_amount_min: { zh: '充值数量不能小于 {min}', en: 'The top-up amount cannot be less than {min}' },
  topup_amount_too_large: { zh: '充值数量过大', en: 'The top-up amount is too large' },
  topup_money_too_low: { zh: '充值金额过低', en: 'The amount to pay is too low' },
  topup_disabled: { zh: '管理员未开启在线充值', en: 'The administrator has not enabled online top-up' },
  topup_pay_method_invalid: { zh: '支付方式不存在', en: 'No such payment method' },
  topup_order_not_found: { zh: '充值订单不存在', en: 'Top-up order not found' },
  topup_order_not_pending: {
    zh: '订单状态不是待支付，无法补单',
    en: 'The order is not pending and cannot be completed',
  },
  topup_trade_no_required: { zh: '请提供订单号', en: 'Give the order number (trade_no)' },
  topup_status_filter_invalid: {
    zh: '无效的订单状态（pending、success）',
    en: 'Invalid order status (pending, success)',
  },
} as const;

/** Messages of periodic budgets, in Chinese (the default) and English; merged into MESSAGES. */

type Scope = 'token' | 'user' | 'group';
type Period = 'day' | 'week' | 'month';
type Kind = 'quota' | 'requests' | 'short' | 'held';
type Text = { zh: string; en: string };

const SCOPES: Record<Scope, Text> = {
  token: { zh: '令牌', en: 'Token' },
  user: { zh: '用户', en: 'User' },
  group: { zh: '分组 {group} ', en: 'Group {group}' },
};
const PERIODS: Record<Period, Text> = {
  day: { zh: '每日', en: 'daily' },
  week: { zh: '每周', en: 'weekly' },
  month: { zh: '每月', en: 'monthly' },
};

/** The refusal of a call over a budget: the scope, the period and when it resets (operator's zone). */
function refusals(): Record<`relay_budget_${Scope}_${Period}_${Kind}`, Text> {
  const out = {} as Record<`relay_budget_${Scope}_${Period}_${Kind}`, Text>;
  for (const s of Object.keys(SCOPES) as Scope[])
    for (const p of Object.keys(PERIODS) as Period[]) {
      out[`relay_budget_${s}_${p}_quota`] = {
        zh: `${SCOPES[s].zh}${PERIODS[p].zh}额度已用尽，将于 {resets}（{zone}）重置`,
        en: `${SCOPES[s].en} ${PERIODS[p].en} budget exhausted: resets at {resets} ({zone})`,
      };
      out[`relay_budget_${s}_${p}_requests`] = {
        zh: `${SCOPES[s].zh}${PERIODS[p].zh}请求次数已达上限 {limit} 次，将于 {resets}（{zone}）重置`,
        en: `${SCOPES[s].en} ${PERIODS[p].en} request limit of {limit} reached: resets at {resets} ({zone})`,
      };
      out[`relay_budget_${s}_${p}_short`] = {
        zh: `本次调用价格 {price} 超过${SCOPES[s].zh}${PERIODS[p].zh}额度剩余的 {left}，将于 {resets}（{zone}）重置`,
        en: `This call costs {price}, more than the {left} left of the ${SCOPES[s].en.toLowerCase()} ${PERIODS[p].en} budget: resets at {resets} ({zone})`,
      };
      out[`relay_budget_${s}_${p}_held`] = {
        zh: `${SCOPES[s].zh}${PERIODS[p].zh}额度剩余的 {left} 正被进行中的请求占用，请稍后重试`,
        en: `The {left} left of the ${SCOPES[s].en.toLowerCase()} ${PERIODS[p].en} budget is held by calls in progress: retry in a moment`,
      };
    }
  return out;
}

export const BUDGET_MESSAGES = {
  budget_not_object: {
    zh: '{field} 必须是按周期（day、week、month）给出上限的对象，例如 {"day": {"quota": 500000, "requests": 100}}',
    en: '{field} must be an object of caps by period (day, week, month), e.g. {"day": {"quota": 500000, "requests": 100}}',
  },
  budget_period_unknown: {
    zh: '{field} 中的周期 {period} 未知：可用 day、week、month',
    en: 'Unknown period {period} in {field}: use day, week or month',
  },
  budget_kind_unknown: {
    zh: '{field} 中的上限 {kind} 未知：可用 quota（额度）、requests（请求次数）',
    en: 'Unknown cap {kind} in {field}: use quota or requests',
  },
  budget_cap_invalid: {
    zh: '{field} 必须是 0 到 {max} 之间的整数（0 表示不限制）',
    en: '{field} must be a whole number from 0 to {max} (0 means no cap)',
  },
  budget_group_invalid: { zh: '分组名 {group} 无效', en: 'Invalid group name {group}' },
  budget_notice_subject: { zh: '预算提醒', en: 'Budget notice' },
  budget_notice_text: {
    zh: '{scope}{period}预算已使用 {percent}%：已用 {used}，上限 {cap}，将于 {resets}（{zone}）重置。',
    en: '{scope} {period} budget is {percent}% used: {used} of {cap}, resets at {resets} ({zone}).',
  },
  ...refusals(),
} as const;

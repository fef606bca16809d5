export { BudgetEditor, type BudgetEditorProps } from './budget-editor';
export { BudgetUsage, SelfBudgetCard } from './budget-usage';
export { GroupBudgetsPanel } from './group-budgets-panel';
export {
  budgetsApi,
  useGetGroupBudgetsQuery,
  useGetSelfBudgetsQuery,
  useGetTokenBudgetsQuery,
  useGetUserBudgetQuery,
  type SelfBudgets,
} from './budgets-api';
export {
  BUDGET_CAP_MAX,
  BUDGET_PERIODS,
  budgetFormOf,
  buildBudget,
  emptyBudgetForm,
  groupBudgetRows,
  groupBudgetsText,
  usageColor,
  usedPercent,
  type Budget,
  type BudgetForm,
  type BudgetPeriod,
  type BudgetStatus,
  type PeriodCaps,
  type PeriodUsage,
} from './budget-rules';
export { budgetsLocales, BUDGETS_NAMESPACE } from './budgets-locales';

/**
 * The relay's side of periodic budgets (modules/budget): every route that spends admits its call here
 * before the ledger's reservation, and settles or releases it with the charge.
 */
import { BudgetExhausted, BudgetParty, BudgetService } from '../../budget';
import { relayFail } from '../errors';
import type { RelayContext } from '../relay-context';

export const budgetParty = (ctx: RelayContext): BudgetParty => ({
  token: ctx.token,
  user: ctx.user,
  group: ctx.group,
});

/**
 * Holds `estimate()` and one request on each budget of the call (ctx.budget), or refuses it with 429 in
 * the caller's format naming the scope, the period and when it resets. No budget: one cached check.
 */
export function admitBudget(
  budgets: BudgetService,
  ctx: RelayContext,
  estimate: () => number,
  /** Keep the hold in the database until the call settles (relay calls: given back after a stop). */
  durable = false,
): Promise<void> | undefined {
  // The call's context is its budget party: nothing allocated, no promise, when no budget applies.
  if (!budgets.applies(ctx)) return undefined;
  return budgets.admit(budgetParty(ctx), estimate, durable).then(
    (hold) => void (ctx.budget = hold),
    (err: unknown) => {
      throw budgetError(err);
    },
  );
}

/** A budget refusal as the relay error written to the caller; anything else as it is. */
export function budgetError(err: unknown): unknown {
  return err instanceof BudgetExhausted ? relayFail(429, err.key, err.params, 'budget_exhausted') : err;
}

/** A served call counts in full in the periods it was admitted in. */
export function settleBudget(budgets: BudgetService, ctx: RelayContext, charged: number): void {
  if (!ctx.budget) return;
  budgets.settle(ctx.budget, charged, budgetParty(ctx));
  ctx.budget = null;
}

/** A call no one served gives its hold and its request back. */
export function releaseBudget(budgets: BudgetService, ctx: RelayContext): void {
  if (!ctx.budget) return;
  budgets.release(ctx.budget);
  ctx.budget = null;
}

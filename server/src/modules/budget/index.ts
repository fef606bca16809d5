/**
 * The budget module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/budget/ is the module's own.
 */
export { BudgetModule } from './budget.module';
export { BudgetExhausted, BudgetService } from './budget.service';
export type { BudgetHold, BudgetParty } from './budget.service';

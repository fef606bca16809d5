import { Global, Module } from '@nestjs/common';
import { MailModule } from '../mail';
import { OptionModule } from '../option';
import { BudgetController } from './budget.controller';
import { BudgetService } from './budget.service';

/** Periodic budgets, used by every route that spends (relay, realtime, tasks, playground). */
@Global()
@Module({
  imports: [OptionModule, MailModule],
  controllers: [BudgetController],
  providers: [BudgetService],
  exports: [BudgetService],
})
export class BudgetModule {}

import { Controller, Get, Param, ParseIntPipe, Query } from '@nestjs/common';
import { ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import { Token, User } from '../../database/entities';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { parseBudget } from '../../common/budget-rules';
import { ApiEnvelope } from '../../common/http/api-envelope';
import { BudgetService, BudgetStatus } from './budget.service';
import { BudgetStatusView, OwnBudgetView } from './budget.view';

const MAX_IDS = 100;

/**
 * Budget usage per current period (used includes what calls in flight hold). Budgets themselves are
 * set with the token, the user (PUT /api/user) and the option GroupBudgets.
 */
@ApiTags('budgets')
@Controller('api/budget')
export class BudgetController {
  constructor(
    private readonly budgets: BudgetService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  @Get('self')
  @UserOnly()
  @ApiOperation({
    summary: "The signed-in user's budget and its group's, per current period → {zone, user, group}",
  })
  @ApiEnvelope(OwnBudgetView)
  async self(@CurrentUser() me: AuthUser): Promise<OwnBudgetView> {
    const row = await this.ds
      .getRepository(User)
      .findOne({ where: { id: me.id }, select: { id: true, budget: true, group: true } });
    const group = row?.group ?? me.group;
    return {
      zone: this.budgets.zone(),
      user: await this.budgets.status('user', String(me.id), parseBudget(row?.budget)),
      group: { name: group, ...(await this.budgets.status('group', group, this.budgets.groupBudget(group))) },
    };
  }

  @Get('token')
  @UserOnly()
  @ApiOperation({ summary: "Budgets of the caller's own tokens (ids=1,2,3; at most 100) → {id: status}" })
  @ApiEnvelope(
    {
      type: 'object',
      additionalProperties: { $ref: getSchemaPath(BudgetStatusView) },
      description: 'token id → status',
    },
    { models: [BudgetStatusView] },
  )
  async tokens(
    @CurrentUser() me: AuthUser,
    @Query('ids') idsRaw: unknown,
  ): Promise<Record<string, BudgetStatus>> {
    const ids =
      typeof idsRaw === 'string' && idsRaw.trim() ? idsRaw.split(',').map((s) => Number(s.trim())) : [];
    if (ids.length > MAX_IDS || !ids.every((n) => Number.isSafeInteger(n) && n > 0))
      throw fail('field_invalid', { field: 'ids', reason: `a comma list of at most ${MAX_IDS} token ids` });
    if (!ids.length) return {};
    const rows = await this.ds.getRepository(Token).find({
      where: { id: In(ids), user_id: me.id, deleted_at: IsNull() },
      select: { id: true, budget: true },
    });
    const st = await this.budgets.statuses(
      'token',
      rows.map((t) => [String(t.id), parseBudget(t.budget)]),
    );
    return Object.fromEntries(st);
  }

  @Get('user/:id')
  @AdminOnly()
  @ApiOperation({ summary: "A user's budget per current period (admins)" })
  @ApiEnvelope(BudgetStatusView)
  async user(@Param('id', ParseIntPipe) id: number): Promise<BudgetStatus> {
    const row = await this.ds
      .getRepository(User)
      .findOne({ where: { id }, select: { id: true, budget: true } });
    if (!row) throw fail('user_not_found');
    return this.budgets.status('user', String(id), parseBudget(row.budget));
  }

  @Get('group')
  @AdminOnly()
  @ApiOperation({
    summary: 'Every group budget (option GroupBudgets) per current period (admins) → {group: status}',
  })
  @ApiEnvelope(
    {
      type: 'object',
      additionalProperties: { $ref: getSchemaPath(BudgetStatusView) },
      description: 'group → status',
    },
    { models: [BudgetStatusView] },
  )
  async groups(): Promise<Record<string, BudgetStatus>> {
    const st = await this.budgets.statuses('group', [...this.budgets.groupBudgets()]);
    return Object.fromEntries(st);
  }
}

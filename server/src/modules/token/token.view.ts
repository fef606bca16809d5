import { ApiProperty } from '@nestjs/swagger';
import { Token } from '../../database/entities';
import { Budget, parseBudget } from '../../common/budget-rules';
import { BUDGET_SCHEMA } from '../../common/budget-schema';
import { maskHint } from './token.service';

/** A token as its owner sees it in lists: the key masked (`abcd**********wxyz`), never its hash or ciphertext. */
export class TokenView {
  @ApiProperty() id!: number;
  @ApiProperty() user_id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() key!: string;
  @ApiProperty() status!: number;
  @ApiProperty() created_time!: number;
  @ApiProperty() accessed_time!: number;
  @ApiProperty() expired_time!: number;
  @ApiProperty() remain_quota!: number;
  @ApiProperty() used_quota!: number;
  @ApiProperty() unlimited_quota!: boolean;
  @ApiProperty() model_limits_enabled!: boolean;
  @ApiProperty() model_limits!: string;
  @ApiProperty() allow_ips!: string;
  @ApiProperty() group!: string;
  /** Requests per minute, tokens per minute, requests in flight (0 = unlimited). */
  @ApiProperty() rpm_limit!: number;
  @ApiProperty() tpm_limit!: number;
  @ApiProperty() concurrency_limit!: number;
  /** Quota and request caps per day, week and month (0 = none); null = no budget. Usage: GET /api/budget/token. */
  @ApiProperty({ ...BUDGET_SCHEMA, example: { day: { quota: 500000, requests: 100 } } })
  budget!: Budget | null;
}

export function toTokenView(t: Token): TokenView {
  return {
    id: t.id,
    user_id: t.user_id,
    name: t.name,
    key: maskHint(t.key_hint),
    status: t.status,
    created_time: Number(t.created_time),
    accessed_time: Number(t.accessed_time),
    expired_time: Number(t.expired_time),
    remain_quota: Number(t.remain_quota),
    used_quota: Number(t.used_quota),
    unlimited_quota: !!t.unlimited_quota,
    model_limits_enabled: !!t.model_limits_enabled,
    model_limits: t.model_limits ?? '',
    allow_ips: t.allow_ips ?? '',
    group: t.group ?? '',
    rpm_limit: t.rpm_limit ?? 0,
    tpm_limit: t.tpm_limit ?? 0,
    concurrency_limit: t.concurrency_limit ?? 0,
    budget: parseBudget(t.budget),
  };
}

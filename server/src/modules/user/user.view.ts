import { ApiProperty } from '@nestjs/swagger';
import { User } from '../../database/entities';
import { Budget, parseBudget } from '../../common/budget-rules';
import { BUDGET_SCHEMA } from '../../common/budget-schema';

/** A user as the API shows it: never the password hash or the access token. */
export class UserView {
  @ApiProperty() id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty() role!: number;
  @ApiProperty() status!: number;
  @ApiProperty() email!: string;
  @ApiProperty() group!: string;
  @ApiProperty() quota!: number;
  @ApiProperty() used_quota!: number;
  @ApiProperty() request_count!: number;
  @ApiProperty() aff_code!: string;
  @ApiProperty() aff_count!: number;
  @ApiProperty() aff_quota!: number;
  @ApiProperty() aff_history_quota!: number;
  @ApiProperty() inviter_id!: number;
  @ApiProperty() github_id!: string;
  @ApiProperty() oidc_id!: string;
  @ApiProperty() wechat_id!: string;
  @ApiProperty() telegram_id!: string;
  @ApiProperty() linux_do_id!: string;
  @ApiProperty() setting!: string;
  @ApiProperty() created_at!: number;
  @ApiProperty({ type: String, nullable: true }) DeletedAt!: string | null;
  /** Quota and request caps per day, week and month (0 = none); null = no budget. Usage: GET /api/budget/self, /api/budget/user/:id. */
  @ApiProperty({ ...BUDGET_SCHEMA, example: { month: { quota: 5000000, requests: 0 } } })
  budget!: Budget | null;
}

/** Keys of the user's own notification settings that are secret: kept but not shown. */
const HIDDEN_SETTING_KEYS = ['webhook_secret'];

export function publicSetting(setting: string | null): string {
  if (!setting) return '';
  try {
    const parsed = JSON.parse(setting) as Record<string, unknown>;
    for (const k of HIDDEN_SETTING_KEYS) if (k in parsed) parsed[k] = '';
    return JSON.stringify(parsed);
  } catch {
    return '';
  }
}

export function toUserView(u: User): UserView {
  return {
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    role: u.role,
    status: u.status,
    email: u.email ?? '',
    group: u.group,
    quota: u.quota,
    used_quota: u.used_quota,
    request_count: u.request_count,
    aff_code: u.aff_code,
    aff_count: u.aff_count,
    aff_quota: u.aff_quota,
    aff_history_quota: u.aff_history_quota,
    inviter_id: u.inviter_id,
    github_id: u.github_id ?? '',
    oidc_id: u.oidc_id ?? '',
    wechat_id: u.wechat_id ?? '',
    telegram_id: u.telegram_id ?? '',
    linux_do_id: u.linux_do_id ?? '',
    setting: publicSetting(u.setting),
    created_at: u.created_at,
    DeletedAt: u.deleted_at ? new Date(u.deleted_at * 1000).toISOString() : null,
    budget: parseBudget(u.budget),
  };
}

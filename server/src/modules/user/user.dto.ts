import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString } from 'class-validator';
import { Budget, checkBudget } from '../../common/budget-rules';
import { BUDGET_SCHEMA } from '../../common/budget-schema';
import { Field } from '../../common/validation';

/** Type checks only; the account rules (lengths, uniqueness) live in the services with the spec's messages. */
export class CreateUserDto {
  @ApiPropertyOptional() @IsOptional() @IsString() username?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() password?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() display_name?: string;
}

export class UpdateUserDto {
  @ApiProperty() @IsInt() id!: number;
  @ApiPropertyOptional() @IsOptional() @IsString() username?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() display_name?: string;
  @ApiPropertyOptional({ description: 'blank keeps the current password' })
  @IsOptional()
  @IsString()
  password?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() group?: string;
  @ApiPropertyOptional({ description: 'the new balance' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  quota?: number;
  @ApiPropertyOptional({ description: 'the balance the admin loaded; the edit applies the difference' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  original_quota?: number;
  @Field((v) => checkBudget(v), {
    ...BUDGET_SCHEMA,
    description: 'caps per period, 0 = none; null clears',
    example: { month: { quota: 5000000, requests: 0 } },
  })
  budget?: Budget | null;
}

export class ManageUserDto {
  @ApiProperty() @IsInt() id!: number;
  @ApiProperty({ enum: ['promote', 'demote', 'disable', 'enable', 'delete', 'add_quota'] })
  @IsString()
  action!: string;
  @ApiPropertyOptional({
    description:
      'add_quota: without mode, a signed delta; with mode add or subtract, a positive amount; with mode override, the new balance',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  value?: number;
  @ApiPropertyOptional({
    enum: ['add', 'subtract', 'override'],
    description: 'add_quota only (new-api form); absent: value is a signed delta',
  })
  @IsOptional()
  @IsString()
  mode?: string;
}

export class UpdateSelfDto {
  @ApiPropertyOptional() @IsOptional() @IsString() display_name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() password?: string;
  @ApiPropertyOptional({ description: 'required to change a password unless the account has none' })
  @IsOptional()
  @IsString()
  original_password?: string;
}

export class DeleteSelfDto {
  @ApiPropertyOptional({ description: 'the account name typed to confirm' })
  @IsOptional()
  @IsString()
  username?: string;
}

export class AffTransferDto {
  @ApiProperty() @IsNumber({ allowNaN: false, allowInfinity: false }) quota!: number;
}

export class UserSettingDto {
  @ApiPropertyOptional({ enum: ['email', 'webhook'] })
  @IsOptional()
  @IsIn(['email', 'webhook'])
  notify_type?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  quota_warning_threshold?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() webhook_url?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() webhook_secret?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() notification_email?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() accept_unset_model_ratio_model?: boolean;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ScopedLimitsDto } from '../../common/scoped-limits.dto';
import { Allow, IsIn, IsInt, IsOptional, IsString } from 'class-validator';

/**
 * The writable channel fields. Text fields are type-checked here; the rules with the spec's messages
 * (required name/key/models, JSON objects, priority, weight, lengths) live in channel-rules.ts, so
 * fields whose wrong type must answer such a message are only whitelisted (`@Allow`).
 */
export class ChannelFieldsDto extends ScopedLimitsDto {
  @ApiPropertyOptional({ description: 'channel type id (see GET /api/models)', example: 1 })
  @Allow()
  type?: unknown;
  @ApiPropertyOptional() @IsOptional() @IsString() name?: string;
  @ApiPropertyOptional({ description: 'write-only; empty on update keeps the stored key; batch mode: one per line' })
  @IsOptional()
  @IsString()
  key?: string;
  @ApiPropertyOptional({ description: 'trailing slashes are stripped' }) @IsOptional() @IsString() base_url?:
    string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() other?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() openai_organization?: string | null;
  @ApiPropertyOptional({ description: 'comma list (an array of names is accepted too)', example: 'gpt-4o,gpt-4o-mini' })
  @Allow()
  models?: unknown;
  @ApiPropertyOptional({ description: 'comma list of groups', example: 'default,vip' }) @Allow() group?: unknown;
  @ApiPropertyOptional({ description: 'groups as a list (wins over group)', type: [String] }) @Allow() groups?: unknown;
  @ApiPropertyOptional({ description: 'JSON object as text' }) @Allow() model_mapping?: unknown;
  @ApiPropertyOptional({ description: 'JSON object as text' }) @Allow() status_code_mapping?: unknown;
  @ApiPropertyOptional({ description: 'JSON object as text' }) @Allow() param_override?: unknown;
  @ApiPropertyOptional({ description: 'JSON object as text' }) @Allow() setting?: unknown;
  @ApiPropertyOptional({ description: 'integer ≥ -999' }) @Allow() priority?: unknown;
  @ApiPropertyOptional({ description: 'integer ≥ 0' }) @Allow() weight?: unknown;
  @ApiPropertyOptional() @IsOptional() @IsString() tag?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() test_model?: string | null;
  @ApiPropertyOptional({ description: '1 or 0 (default 1)' }) @Allow() auto_ban?: unknown;
  @ApiPropertyOptional({ description: '1 enabled, 2 disabled (3 automatically disabled)' }) @Allow() status?: unknown;
  @ApiPropertyOptional({ description: '0 = no limit' }) @Allow() max_input_tokens?: unknown;
}

export class CreateChannelDto extends ChannelFieldsDto {
  @ApiPropertyOptional({ enum: ['single', 'batch'], description: 'batch: one channel per non-empty key line' })
  @IsOptional()
  @IsIn(['single', 'batch'])
  mode?: 'single' | 'batch';
}

export class UpdateChannelDto extends ChannelFieldsDto {
  @ApiProperty() @IsInt() id!: number;
}

export class ChannelIdsDto {
  @ApiProperty({ type: [Number] }) @Allow() ids?: unknown;
}

export class BatchTagDto extends ChannelIdsDto {
  @ApiProperty() @IsOptional() @IsString() tag?: string | null;
}

export class TagDto {
  @ApiProperty() @IsOptional() @IsString() tag?: string;
}

export class EditTagDto extends TagDto {
  @ApiPropertyOptional({ description: 'absent = unchanged; empty string dissolves the tag' })
  @IsOptional()
  @IsString()
  new_tag?: string | null;
  @ApiPropertyOptional({ description: 'JSON object as text; empty = unchanged' }) @Allow() model_mapping?: unknown;
  @ApiPropertyOptional({ description: 'comma list or list; empty = unchanged' }) @Allow() models?: unknown;
  @ApiPropertyOptional({ description: 'comma list or list; empty = unchanged' }) @Allow() groups?: unknown;
  @ApiPropertyOptional({ description: 'integer ≥ -999; empty = unchanged' }) @Allow() priority?: unknown;
  @ApiPropertyOptional({ description: 'integer ≥ 0; empty = unchanged' }) @Allow() weight?: unknown;
}

import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { fail } from '../../common/app-error';
import { Field } from '../../common/validation';
import type { AuthUser } from '../../common/http/request-context';
import { AdminOnly, CurrentUser } from '../../common/http/access';
import { OptionService } from './option.service';
import { ApiEnvelope } from '../../common/http/api-envelope';

/** One option as `GET /api/option/` lists it. */
export class OptionListItem {
  @ApiProperty() key!: string;
  @ApiProperty() value!: string;
  @ApiPropertyOptional({ enum: [true], description: 'only root may change it' }) root_only?: true;
}

export class UpdateOptionDto {
  @ApiProperty() @IsString() key!: string;
  // The value's type is checked here; its content per key by the option registry.
  @Field(
    (v, body) => {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw fail('option_invalid', {
          key: typeof body.key === 'string' ? body.key : '',
          reason: 'must be text',
        });
    },
    {
      oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
      required: true,
      description: 'the value as text (booleans and numbers are accepted and stringified)',
    },
  )
  value!: string | number | boolean | null;
  @ApiPropertyOptional({ description: 'with an empty value: clears a secret option' })
  @IsOptional()
  @IsBoolean()
  clear?: boolean;
}

@ApiTags('options')
@Controller('api/option')
export class OptionController {
  constructor(private readonly options: OptionService) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Every option as {key, value}; secrets are never listed' })
  @ApiEnvelope([OptionListItem])
  list(@CurrentUser() me: AuthUser) {
    return this.options.list(me.role);
  }

  @Put()
  @AdminOnly()
  @ApiOperation({ summary: 'Changes one option (root-only keys need root)' })
  @ApiEnvelope(null)
  async update(@CurrentUser() me: AuthUser, @Body() body: UpdateOptionDto) {
    await this.options.update(body.key, body.value, me.role, body.clear === true);
  }

  @Post('rest_model_ratio')
  @AdminOnly()
  @ApiOperation({
    summary: 'Restores ModelPrice, ModelRatio, CompletionRatio and CacheRatio to the built-in defaults',
  })
  @ApiEnvelope(null)
  async resetModelRatio() {
    await this.options.resetPrices();
  }
}

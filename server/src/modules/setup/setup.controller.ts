import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { AllowBeforeSetup, Public } from '../../common/http/access';
import { SetupService } from './setup.service';
import { ApiEnvelope, BOOLEAN, objectOf, STRING } from '../../common/http/api-envelope';

export class SetupDto {
  @ApiPropertyOptional() @IsOptional() @IsString() username?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() password?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() confirmPassword?: string;
  @ApiPropertyOptional() @IsOptional() SelfUseModeEnabled?: boolean | string;
  @ApiPropertyOptional() @IsOptional() DemoSiteEnabled?: boolean | string;
}

@ApiTags('setup')
@Controller('api/setup')
export class SetupController {
  constructor(private readonly setup: SetupService) {}

  @Get()
  @Public()
  @AllowBeforeSetup()
  @ApiOperation({ summary: '{status, root_init, database_type}' })
  @ApiEnvelope(objectOf({ status: BOOLEAN, root_init: BOOLEAN, database_type: STRING }))
  status() {
    return this.setup.status();
  }

  @Post()
  @Public()
  @AllowBeforeSetup()
  @ApiOperation({ summary: 'Creates root and records the usage mode, once' })
  @ApiEnvelope(null)
  async run(@Body() body: SetupDto) {
    await this.setup.run(body ?? {});
  }
}

import { applyDecorators, Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/http/request-context';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { DashboardService } from './dashboard.service';
import { ApiEnvelope } from '../../common/http/api-envelope';
import { QuotaPoint, UserQuotaPoint } from './dashboard.service';
import type { UnknownObject as Raw } from '../../common/json';

const filters = (admin: boolean) =>
  applyDecorators(
    ...[
      {
        name: 'start_timestamp',
        description: 'unix seconds; 0 = from the beginning (absent: 7 days before the end)',
      },
      { name: 'end_timestamp', description: 'unix seconds (default: now)' },
      { name: 'default_time', description: 'hour, day or week (default: the DataExportDefaultTime option)' },
      { name: 'model_name', description: 'part of the model name (literal)' },
      ...(admin ? [{ name: 'username', description: 'exact user name' }] : []),
    ].map((q) => ApiQuery({ ...q, required: false })),
  );

/** The dashboard's usage series: [{model_name, created_at (bucket start), count, quota, token_used}]. */
@ApiTags('dashboard')
@Controller('api/data')
export class DashboardController {
  constructor(private readonly data: DashboardService) {}

  @Get()
  @AdminOnly()
  @filters(true)
  @ApiOperation({ summary: 'Everyone’s usage per model and time bucket (or one user’s by ?username)' })
  @ApiEnvelope([QuotaPoint])
  all(@Query() query: Raw) {
    return this.data.all(query);
  }

  @Get('users')
  @AdminOnly()
  @filters(true)
  @ApiOperation({ summary: 'Usage per user and time bucket, all models summed (new-api’s per-user series)' })
  @ApiEnvelope([UserQuotaPoint])
  users(@Query() query: Raw) {
    return this.data.byUser(query);
  }

  @Get('self')
  @UserOnly()
  @filters(false)
  @ApiOperation({ summary: 'The caller’s own usage per model and time bucket' })
  @ApiEnvelope([QuotaPoint])
  own(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.data.own(me, query);
  }
}

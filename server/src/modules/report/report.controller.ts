import { applyDecorators, Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/http/request-context';
import { AdminOnly, CurrentUser, UserOnly } from '../auth/access.decorator';
import { ReportService } from './report.service';

type Raw = Record<string, unknown>;

const PARAMS = [
  { name: 'period', description: 'day (default), week (from Monday) or month, in the operator’s time zone' },
  { name: 'group_by', description: 'model (default), user, token, group, channel (admins)' },
  {
    name: 'start_timestamp',
    description: 'unix seconds, inclusive; absent = 30 days before the end, 0 = first log',
  },
  { name: 'end_timestamp', description: 'unix seconds, inclusive; absent or 0 = now' },
  { name: 'token_name', description: 'exact token name' },
  { name: 'model_name', description: 'part of the model name (literal)' },
  { name: 'group', description: 'exact group' },
];
const ADMIN_PARAMS = [
  { name: 'username', description: 'exact user name (admins)' },
  { name: 'channel', description: 'channel id (admins)' },
];
const queries = (list: Array<{ name: string; description: string }>) =>
  applyDecorators(...list.map((q) => ApiQuery({ ...q, required: false })));

/** Usage and spend reports: every user's (admins) or the caller's own. */
@ApiTags('reports')
@Controller('api/report')
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  @Get()
  @AdminOnly()
  @queries([...PARAMS, ...ADMIN_PARAMS])
  @ApiOperation({
    summary:
      'Consumption by period × dimension → {period, group_by, time_zone, start_timestamp, end_timestamp, rows, totals}',
  })
  reportAll(@Query() query: Raw) {
    return this.reports.reportAll(query);
  }

  @Get('self')
  @UserOnly()
  @queries(PARAMS)
  @ApiOperation({ summary: 'The caller’s own consumption by period × dimension (no channel dimension)' })
  reportOwn(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.reports.reportOwn(me, query);
  }
}

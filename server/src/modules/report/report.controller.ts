import { applyDecorators, Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AuthUser } from '../../common/http/request-context';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { ReportService } from './report.service';
import { Report } from './report.view';
import { ApiEnvelope, ApiFile } from '../../common/http/api-envelope';
import type { UnknownObject as Raw } from '../../common/json';

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

function sendCsv(reply: FastifyReply, file: { filename: string; body: string }): FastifyReply {
  return reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${file.filename}"`)
    .header('Cache-Control', 'no-store')
    .send(file.body);
}

/** Usage and spend reports: every user's (admins) or the caller's own, as JSON or a CSV file. */
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
  @ApiEnvelope(Report)
  reportAll(@Query() query: Raw): Promise<Report> {
    return this.reports.reportAll(query);
  }

  @Get('export')
  @AdminOnly()
  @queries([...PARAMS, ...ADMIN_PARAMS])
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'The same report as a CSV file (one line per row, then the totals)' })
  @ApiFile('text/csv')
  async exportAll(@Query() query: Raw, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendCsv(reply, await this.reports.csv(query, null));
  }

  @Get('self/export')
  @UserOnly()
  @queries(PARAMS)
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'The caller’s own report as a CSV file' })
  @ApiFile('text/csv')
  async exportOwn(
    @CurrentUser() me: AuthUser,
    @Query() query: Raw,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    return sendCsv(reply, await this.reports.csv(query, me.id));
  }

  @Get('self')
  @UserOnly()
  @queries(PARAMS)
  @ApiOperation({ summary: 'The caller’s own consumption by period × dimension (no channel dimension)' })
  @ApiEnvelope(Report)
  reportOwn(@CurrentUser() me: AuthUser, @Query() query: Raw): Promise<Report> {
    return this.reports.reportOwn(me, query);
  }
}

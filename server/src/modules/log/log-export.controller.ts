import { applyDecorators, Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AuthUser } from '../../common/http/request-context';
import type { Lang } from '../../common/i18n/messages';
import { RequestLang } from '../../common/i18n/request-lang.decorator';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { LogExport, LogExportService } from './log-export.service';
import { ApiFile } from '../../common/http/api-envelope';
import type { UnknownObject as Raw } from '../../common/json';

const FILTERS = [
  { name: 'format', description: 'csv (default) or jsonl' },
  { name: 'type', description: '0 all, 1 top-up, 2 consumption, 3 management, 4 system, 5 error' },
  { name: 'start_timestamp', description: 'unix seconds, inclusive' },
  { name: 'end_timestamp', description: 'unix seconds, inclusive' },
  { name: 'token_name', description: 'exact token name' },
  { name: 'model_name', description: 'part of the model name (literal)' },
  { name: 'group', description: 'exact group' },
  { name: 'request_id', description: 'exact request id' },
];
const ADMIN_FILTERS = [
  { name: 'username', description: 'exact user name (admins)' },
  { name: 'channel', description: 'channel id (admins)' },
];
const queries = (list: Array<{ name: string; description: string }>) =>
  applyDecorators(...list.map((q) => ApiQuery({ ...q, required: false })));

function send(reply: FastifyReply, out: LogExport): FastifyReply {
  return reply
    .header('Content-Type', out.contentType)
    .header('Content-Disposition', `attachment; filename="${out.filename}"`)
    .header('Cache-Control', 'no-store')
    .header('X-Total-Count', String(out.total))
    .send(out.body);
}

/** Streamed exports of a filtered log view: every user's (admins) or the caller's own. */
@ApiTags('logs')
@Controller('api/log')
export class LogExportController {
  constructor(private readonly exports: LogExportService) {}

  @Get('export')
  @AdminOnly()
  @queries([...FILTERS, ...ADMIN_FILTERS])
  @ApiProduces('text/csv', 'application/x-ndjson')
  @ApiOperation({
    summary: 'Every user’s logs matching the filters, newest first, as CSV or JSON Lines (streamed)',
  })
  @ApiFile('text/csv', 'application/x-ndjson')
  async exportAll(
    @Query() query: Raw,
    @RequestLang() lang: Lang,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    return send(reply, await this.exports.exportAll(query, lang));
  }

  @Get('self/export')
  @UserOnly()
  @queries(FILTERS)
  @ApiProduces('text/csv', 'application/x-ndjson')
  @ApiOperation({ summary: 'The caller’s own logs matching the filters, as CSV or JSON Lines (streamed)' })
  @ApiFile('text/csv', 'application/x-ndjson')
  async exportOwn(
    @CurrentUser() me: AuthUser,
    @Query() query: Raw,
    @RequestLang() lang: Lang,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    return send(reply, await this.exports.exportOwn(me, query, lang));
  }
}

import {
  applyDecorators,
  Controller,
  Delete,
  Get,
  Headers,
  Param,
  ParseIntPipe,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { AuthUser } from '../../common/http/request-context';
import type { Lang } from '../../common/i18n/messages';
import { RequestLang } from '../../common/i18n/request-lang.decorator';
import { AdminOnly, CurrentUser, Public, UserOnly } from '../../common/http/access';
import { LogQueryService } from './log-query.service';
import { ApiEnvelope, ApiPage, INTEGER, pageSchema } from '../../common/http/api-envelope';
import { LogStat, UserSummary } from './log-query.service';
import { AdminLogView, LogView } from './log.view';
import type { UnknownObject as Raw } from '../../common/json';

const FILTERS = [
  { name: 'p', description: 'page, 1-based' },
  { name: 'page_size', description: 'rows per page (default 10, at most 100; also size, ps)' },
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

/** Usage logs: everyone's (admins), the caller's own, a token's own (by key), summaries and clean-up. */
@ApiTags('logs')
@Controller('api/log')
export class LogController {
  constructor(private readonly logs: LogQueryService) {}

  @Get()
  @AdminOnly()
  @queries([...FILTERS, ...ADMIN_FILTERS])
  @ApiOperation({ summary: 'Every user’s logs, newest first → {items, total, page, page_size}' })
  @ApiPage(AdminLogView)
  listAll(@Query() query: Raw, @RequestLang() lang: Lang) {
    return this.logs.listAll(query, lang);
  }

  @Delete()
  @AdminOnly()
  @ApiQuery({ name: 'target_timestamp', required: true, description: 'unix seconds; older logs are deleted' })
  @ApiOperation({ summary: 'Deletes every log written before target_timestamp → number deleted' })
  @ApiEnvelope(INTEGER, 'logs deleted')
  deleteBefore(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.logs.deleteBefore(me, query);
  }

  @Get('stat')
  @AdminOnly()
  @queries([...FILTERS.slice(3), ...ADMIN_FILTERS])
  @ApiOperation({ summary: 'Consumption of the matching logs → {quota, rpm, tpm} (rpm/tpm: last 60 s)' })
  @ApiEnvelope(LogStat)
  statAll(@Query() query: Raw) {
    return this.logs.statAll(query);
  }

  @Get('self')
  @UserOnly()
  @queries(FILTERS)
  @ApiOperation({
    summary: 'The caller’s own logs (no channel, no admin_info) → {items, total, page, page_size}',
  })
  @ApiPage(LogView)
  listOwn(@CurrentUser() me: AuthUser, @Query() query: Raw, @RequestLang() lang: Lang) {
    return this.logs.listOwn(me, query, lang);
  }

  @Get('self/stat')
  @UserOnly()
  @queries(FILTERS.slice(3))
  @ApiOperation({ summary: 'The caller’s own consumption → {quota, rpm, tpm} (rpm/tpm: last 60 s)' })
  @ApiEnvelope(LogStat)
  statOwn(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.logs.statOwn(me, query);
  }

  @Get('token')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiHeader({ name: 'Authorization', required: false, description: 'Bearer sk-… (or use ?key=)' })
  @queries([{ name: 'key', description: 'the API key, sk-…' }, ...FILTERS])
  @ApiOperation({
    summary:
      'The logs of one API token, read with its key → the 100 newest as a list (new-api form), or with ' +
      '?p, page_size (or size, ps) one page {items, total, page, page_size}',
  })
  @ApiEnvelope(
    {
      oneOf: [
        { type: 'array', items: { $ref: getSchemaPath(LogView) } },
        pageSchema({ $ref: getSchemaPath(LogView) }),
      ],
    },
    { models: [LogView] },
  )
  listByKey(
    @Headers('authorization') authorization: string | undefined,
    @Query() query: Raw,
    @RequestLang() lang: Lang,
  ) {
    return this.logs.listByKey(authorization, query, lang);
  }
}

/** The user-info popup of the log screen (admins, any user). */
@ApiTags('logs')
@Controller('api/user')
export class UserSummaryController {
  constructor(private readonly logs: LogQueryService) {}

  @Get(':id/summary')
  @AdminOnly()
  @ApiOperation({
    summary: 'A user’s figures for the log popup → {username, quota, used_quota, request_count}',
  })
  @ApiEnvelope(UserSummary)
  summary(@Param('id', ParseIntPipe) id: number) {
    return this.logs.userSummary(id);
  }
}

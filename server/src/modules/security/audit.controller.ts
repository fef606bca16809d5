import { applyDecorators, Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RawResponse } from '../../common/http/envelope';
import { AdminOnly } from '../../common/http/access';
import { AuditService } from './audit.service';
import { ApiFile, ApiPage } from '../../common/http/api-envelope';
import { AuditView } from './audit.service';
import type { Lang } from '../../common/i18n/messages';
import { RequestLang } from '../../common/i18n/request-lang.decorator';

const FILTERS = [
  { name: 'actor', description: 'exact user name of who acted' },
  { name: 'actor_id', description: 'id of who acted' },
  { name: 'action', description: 'an action (user.update) or a whole kind (user, channel, option, …)' },
  { name: 'target_type', description: 'user, token, channel, option, redemption, topup, log' },
  { name: 'target_id', description: 'the target’s id (an option’s key)' },
  { name: 'start_timestamp', description: 'unix seconds, inclusive' },
  { name: 'end_timestamp', description: 'unix seconds, inclusive' },
];
const filters = () => applyDecorators(...FILTERS.map((q) => ApiQuery({ ...q, required: false })));

/** The audit trail of administrative changes: read and export only (there is no route that edits it). */
@ApiTags('audit')
@Controller('api/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @AdminOnly()
  @filters()
  @ApiQuery({ name: 'p', required: false, description: 'page, 1-based' })
  @ApiQuery({ name: 'page_size', required: false, description: 'rows per page (default 10, at most 100)' })
  @ApiOperation({ summary: 'Audit entries, newest first → {items, total, page, page_size}' })
  @ApiPage(AuditView)
  list(@Query() query: Record<string, unknown>, @RequestLang() lang: Lang) {
    return this.audit.list(query, lang);
  }

  @Get('export')
  @AdminOnly()
  @RawResponse()
  @filters()
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('content-disposition', 'attachment; filename="audit.csv"')
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'The matching entries as CSV (newest first, at most 10,000 rows)' })
  @ApiFile('text/csv')
  export(@Query() query: Record<string, unknown>, @RequestLang() lang: Lang) {
    return this.audit.csv(query, lang);
  }
}

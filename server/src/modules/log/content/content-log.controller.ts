import { Body, Controller, Get, Param, ParseIntPipe, Put } from '@nestjs/common';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { fail } from '../../../common/app-error';
import { AdminOnly, CurrentUser, UserOnly } from '../../../common/http/access';
import { ApiEnvelope } from '../../../common/http/api-envelope';
import type { AuthUser } from '../../../common/http/request-context';
import { Field } from '../../../common/validation';
import { ContentLogService } from './content-log.service';

const SWITCH: SchemaObject = {
  type: 'object',
  required: ['enabled'],
  properties: { enabled: { type: 'boolean' } },
};

const CONTENT: SchemaObject = {
  type: 'object',
  required: ['log_id', 'request_id', 'created_at', 'request', 'response', 'meta'],
  properties: {
    log_id: { type: 'integer' },
    request_id: { type: 'string' },
    created_at: { type: 'integer', description: 'unix seconds (the call’s start)' },
    request: {
      type: 'string',
      description: 'the request body as JSON text, redacted, cut at ContentLogMaxBytes',
    },
    response: {
      type: 'string',
      description:
        'the answer: JSON text (a stream reassembled into one answer), or the raw SSE/text when not reassembled',
    },
    meta: {
      type: 'object',
      additionalProperties: true,
      description:
        'format, mode, path, stream, status, content_type, headers (credentials redacted), request_truncated, response_truncated, response_kind (json, stream, sse, text, binary, empty), cap; channel_id for admins',
    },
  },
};

export class ContentSwitchDto {
  @Field(
    (v) => {
      if (typeof v !== 'boolean') throw fail('content_log_enabled_invalid');
    },
    {
      type: 'boolean',
      required: true,
      description: 'true stores the content of this token’s or user’s calls',
    },
  )
  enabled?: boolean;
}

/** Content logs: a log row's stored request and answer, and the per-token and per-user switches. */
@ApiTags('logs')
@Controller('api')
export class ContentLogController {
  constructor(private readonly content: ContentLogService) {}

  @Get('log/:id/content')
  @UserOnly()
  @ApiEnvelope(CONTENT)
  @ApiOperation({
    summary:
      'The stored request and answer of a log row → {log_id, request_id, created_at, request, response, meta}. Admins: any row; users: their own, when ContentLogUserViewEnabled is on (403 otherwise)',
  })
  read(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    return this.content.read(me, id);
  }

  @Get('content_log/token/:id')
  @AdminOnly()
  @ApiEnvelope(SWITCH)
  @ApiOperation({ summary: 'Whether a token’s calls store their content → {enabled}' })
  async getToken(@Param('id', ParseIntPipe) id: number) {
    return { enabled: await this.content.getSwitch('token', id) };
  }

  @Put('content_log/token/:id')
  @AdminOnly()
  @ApiEnvelope(SWITCH)
  @ApiOperation({ summary: 'Switches content logging of a token’s calls on or off → {enabled}' })
  setToken(
    @CurrentUser() me: AuthUser,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ContentSwitchDto,
  ) {
    return this.set(me, 'token', id, body);
  }

  @Get('content_log/user/:id')
  @AdminOnly()
  @ApiEnvelope(SWITCH)
  @ApiOperation({
    summary: 'Whether a user’s calls (every token, and the playground) store their content → {enabled}',
  })
  async getUser(@Param('id', ParseIntPipe) id: number) {
    return { enabled: await this.content.getSwitch('user', id) };
  }

  @Put('content_log/user/:id')
  @AdminOnly()
  @ApiEnvelope(SWITCH)
  @ApiOperation({ summary: 'Switches content logging of a user’s calls on or off → {enabled}' })
  setUser(
    @CurrentUser() me: AuthUser,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ContentSwitchDto,
  ) {
    return this.set(me, 'user', id, body);
  }

  private async set(me: AuthUser, scope: 'token' | 'user', id: number, body: ContentSwitchDto) {
    // Absent (or null): the field's rule runs only on a value that is sent.
    if (typeof body?.enabled !== 'boolean') throw fail('content_log_enabled_invalid');
    return { enabled: await this.content.setSwitch(me, scope, id, body.enabled) };
  }
}

import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/http/request-context';
import { CurrentUser, UserOnly } from '../../common/http/access';
import { TokenManageService } from './token-manage.service';
import { CreateTokenDto, TokenIdsDto, UpdateTokenDto } from './token.dto';
import { ApiEnvelope, ApiPage, INTEGER, objectOf, STRING } from '../../common/http/api-envelope';
import { TokenView } from './token.view';
import type { UnknownObject as Raw } from '../../common/json';

/** The signed-in user's own API tokens. Keys are listed masked; the full key only from POST /{id}/key. */
@ApiTags('tokens')
@Controller('api/token')
export class TokenController {
  constructor(private readonly tokens: TokenManageService) {}

  @Get()
  @UserOnly()
  @ApiOperation({ summary: 'Own tokens, paged (?p, page_size|size), keys masked' })
  @ApiPage(TokenView)
  list(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.tokens.list(me, query);
  }

  @Get('search')
  @UserOnly()
  @ApiOperation({
    summary: 'Search own tokens: ?keyword (name) and ?token (a full key, a masked key or part of a key)',
  })
  @ApiPage(TokenView)
  search(@CurrentUser() me: AuthUser, @Query() query: Raw) {
    return this.tokens.search(me, query);
  }

  @Post()
  @UserOnly()
  @ApiOperation({ summary: 'Creates `count` tokens (default 1) → the new tokens, keys masked' })
  @ApiEnvelope([TokenView], 'the new tokens, keys masked')
  create(@CurrentUser() me: AuthUser, @Body() body: CreateTokenDto) {
    return this.tokens.create(me, body);
  }

  @Put()
  @UserOnly()
  @ApiOperation({ summary: 'Updates an own token by id; ?status_only=true changes only status' })
  @ApiEnvelope(TokenView)
  update(
    @CurrentUser() me: AuthUser,
    @Body() body: UpdateTokenDto,
    @Query('status_only') statusOnly?: string,
  ) {
    return this.tokens.update(me, body, statusOnly === 'true' || statusOnly === '1');
  }

  @Post('batch')
  @UserOnly()
  @ApiOperation({ summary: 'Deletes own tokens {ids} → number deleted' })
  @ApiEnvelope(INTEGER, 'tokens deleted')
  removeMany(@CurrentUser() me: AuthUser, @Body() body: TokenIdsDto) {
    return this.tokens.removeMany(me, body?.ids);
  }

  @Post(':id/key')
  @UserOnly()
  @ApiOperation({ summary: 'The full key of an own token → {key: "sk-..."}' })
  @ApiEnvelope(objectOf({ key: STRING }))
  reveal(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    return this.tokens.reveal(me, id);
  }

  @Get(':id')
  @UserOnly()
  @ApiOperation({ summary: 'One own token, key masked' })
  @ApiEnvelope(TokenView)
  get(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    return this.tokens.get(me, id);
  }

  @Delete(':id')
  @UserOnly()
  @ApiOperation({ summary: 'Deletes an own token' })
  @ApiEnvelope(null)
  async remove(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    await this.tokens.remove(me, id);
  }
}

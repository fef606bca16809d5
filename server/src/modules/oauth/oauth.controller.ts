import { applyDecorators, Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/app-error';
import { translate } from '../../common/i18n/messages';
import type { AuthUser } from '../../common/http/request-context';
import { CurrentUser, Public, UserOnly } from '../../common/http/access';
import { OAuthCallerService } from './oauth-caller.service';
import { BIND_MESSAGE, CallbackQuery, OAuthService } from './oauth.service';
import { ApiEnvelope, ApiEnvelopeOneOf, ApiRedirect, STRING } from '../../common/http/api-envelope';
import { LoginResult } from '../auth';
import { TwoFactorChallenge } from '../auth';
import { StateAnswer } from './oauth.service';
import type { UnknownObject as Raw } from '../../common/json';

const CallbackQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'code', required: true, description: 'authorization code the provider returned' }),
    ApiQuery({ name: 'state', required: true, description: 'the state from GET /api/oauth/state' }),
  );

/**
 * Third-party sign-in and binding. The console's /oauth/{type} route calls the callback with the
 * provider's code and state: a signed-in caller binds, anybody else signs in (or signs up). Every
 * route is rate-limited per address (they reach out to the providers).
 */
@ApiTags('oauth')
@Controller('api/oauth')
@UseGuards(ThrottlerGuard)
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly caller: OAuthCallerService,
  ) {}

  @Get('state')
  @Public()
  @ApiOperation({
    summary:
      'A single-use sign-in state for this browser (10 minutes); data is the state string, or with ' +
      '?provider=github|oidc|linuxdo|telegram {state, authorize_url, redirect_uri, scope, nonce, code_challenge, code_challenge_method}',
  })
  @ApiQuery({
    name: 'aff',
    required: false,
    description: 'invitation code applied if the sign-in creates an account',
  })
  @ApiQuery({ name: 'provider', required: false, enum: ['github', 'oidc', 'linuxdo', 'telegram'] })
  @ApiEnvelope(
    { oneOf: [STRING, { $ref: getSchemaPath(StateAnswer) }] },
    {
      description: 'the state alone (telegram), or the state with the authorization address',
      models: [StateAnswer],
    },
  )
  state(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('aff') aff?: string,
    @Query('provider') provider?: string,
  ) {
    return this.oauth.state(req, reply, aff, provider);
  }

  @Get('github')
  @Public()
  @ApiOperation({
    summary: 'GitHub callback: signs in (data = the user) or, when signed in, binds (message "bind")',
  })
  @CallbackQueries()
  @ApiEnvelopeOneOf([LoginResult, TwoFactorChallenge], { nullable: true })
  github(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: CallbackQuery,
  ) {
    return this.oauth.callback(req, reply, 'github', query);
  }

  @Get('oidc')
  @Public()
  @ApiOperation({ summary: 'OIDC callback (state from ?provider=oidc; pass iss when the provider sent it)' })
  @CallbackQueries()
  @ApiQuery({ name: 'iss', required: false })
  @ApiEnvelopeOneOf([LoginResult, TwoFactorChallenge], { nullable: true })
  oidc(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: CallbackQuery,
  ) {
    return this.oauth.callback(req, reply, 'oidc', query);
  }

  @Get('linuxdo')
  @Public()
  @ApiOperation({ summary: 'LinuxDO callback: signs in or binds' })
  @CallbackQueries()
  @ApiEnvelopeOneOf([LoginResult, TwoFactorChallenge], { nullable: true })
  linuxdo(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: CallbackQuery,
  ) {
    return this.oauth.callback(req, reply, 'linuxdo', query);
  }

  @Get('wechat')
  @Public()
  @ApiOperation({
    summary: 'Scan-code sign-in with the code the WeChat official account gave (signs up when new)',
  })
  @ApiQuery({ name: 'code', required: true })
  @ApiQuery({ name: 'aff', required: false })
  @ApiEnvelopeOneOf([LoginResult, TwoFactorChallenge])
  wechat(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('code') code?: string,
    @Query('aff') aff?: string,
  ) {
    return this.oauth.wechatLogin(req, reply, code, aff);
  }

  @Get('wechat/bind')
  @UserOnly()
  @ApiOperation({ summary: 'Binds the WeChat account behind a scan code to the signed-in user' })
  @ApiQuery({ name: 'code', required: true })
  @ApiEnvelope(null)
  wechatBind(@CurrentUser() me: AuthUser, @Query('code') code?: string) {
    return this.oauth.wechatBind(me.id, code);
  }

  @Get('telegram/login')
  @Public()
  @ApiOperation({
    summary:
      'Telegram Login Widget sign-in (id, first_name, last_name, username, photo_url, auth_date, hash); bound accounts only',
  })
  @ApiEnvelopeOneOf([LoginResult, TwoFactorChallenge])
  telegramLogin(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query() query: Raw,
  ) {
    return this.oauth.telegramLogin(req, reply, query);
  }

  /**
   * Signed-in users only. Called by the console (New-Api-User header) it answers JSON; reached by the
   * widget's browser redirect (no header), it needs `state` from /api/oauth/state and answers with a
   * redirect to /personal (`?bind=telegram`, or `?bind_error=<message>`).
   */
  @Get('telegram/bind')
  @Public() // authentication is checked here: a browser redirect cannot carry New-Api-User
  @ApiOperation({ summary: 'Binds a Telegram account (widget fields; plus state when reached by redirect)' })
  @ApiRedirect()
  @ApiEnvelope(null, 'called by the console: JSON (a browser redirect gets 302)')
  async telegramBind(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query() query: Raw,
  ): Promise<void> {
    const { user, redirect } = await this.caller.binder(req);
    try {
      await this.oauth.telegramBind(req, user, redirect, query);
    } catch (e) {
      if (redirect && e instanceof AppError) {
        const message = translate(e.key, req.lang ?? 'zh', e.params);
        return void reply.redirect(`/personal?bind_error=${encodeURIComponent(message)}`, 302);
      }
      throw e;
    }
    if (redirect) return void reply.redirect('/personal?bind=telegram', 302);
    void reply
      .header('content-type', 'application/json; charset=utf-8')
      .send({ success: true, message: BIND_MESSAGE, data: null });
  }
}

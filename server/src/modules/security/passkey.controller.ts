import { Body, Controller, Delete, Param, ParseIntPipe, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import { IsOptional, IsString } from 'class-validator';
import { fail } from '../../common/app-error';
import { assertJsonBody } from '../../common/http/json-only';
import { isObject } from '../../common/json';
import { Field } from '../../common/validation';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../common/http/request-context';
import { CurrentUser, Public, UserOnly } from '../../common/http/access';
import { loginResult } from '../auth';
import { SecondFactorGate } from '../auth';
import { StepUpService } from '../auth';
import { PasskeyService } from './passkey.service';
import { SecondFactorAttempt, SecondFactorLimit } from './second-factor-limit.service';
import { UserService } from '../user';
import { ApiEnvelope, INTEGER, objectOf, STRING } from '../../common/http/api-envelope';
import { LoginResult } from '../auth';
import { PasskeyCreationOptions, PasskeyRequestOptions } from './passkey.view';

export class PasskeyResponseDto {
  @Field(
    (v) => {
      // Its content is checked by the WebAuthn verification; a value that is no credential is refused here.
      if (!isObject(v)) throw fail('passkey_invalid');
    },
    {
      type: Object,
      required: true,
      description:
        'the browser’s PublicKeyCredential as JSON (SimpleWebAuthn’s startRegistration/startAuthentication)',
    },
  )
  response!: unknown;
}

export class PasskeyRegisterDto extends PasskeyResponseDto {
  @ApiPropertyOptional({ maxLength: 64 }) @IsOptional() @IsString() name?: string;
}

/** The check's outcome settles the counted attempt (none for a sign-in without a password). */
async function settle<T>(attempt: SecondFactorAttempt | null, check: Promise<T>): Promise<T> {
  try {
    const result = await check;
    await attempt?.succeeded();
    return result;
  } catch (e) {
    await attempt?.failed();
    throw e;
  }
}

/** Passkeys (WebAuthn): registration, sign-in with or without a password, step-up checks. */
@ApiTags('security')
@Controller('api/user/passkey')
export class PasskeyController {
  constructor(
    private readonly passkeys: PasskeyService,
    private readonly gate: SecondFactorGate,
    private readonly stepUp: StepUpService,
    private readonly users: UserService,
    private readonly limit: SecondFactorLimit,
  ) {}

  @Post('register/options')
  @UserOnly()
  @ApiOperation({ summary: 'Creation options for a new passkey of the signed-in user (step-up)' })
  @ApiEnvelope(PasskeyCreationOptions, 'WebAuthn PublicKeyCredentialCreationOptionsJSON')
  registerOptions(
    @CurrentUser() me: AuthUser,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.passkeys.registrationOptions(req, reply, me);
  }

  @Post('register')
  @UserOnly()
  @ApiOperation({ summary: 'Stores the new passkey → {id, name}' })
  @ApiEnvelope(objectOf({ id: INTEGER, name: STRING }))
  register(
    @CurrentUser() me: AuthUser,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: PasskeyRegisterDto,
  ) {
    return this.passkeys.register(req, reply, me.id, body?.response, body?.name);
  }

  @Delete(':id')
  @UserOnly()
  @ApiOperation({ summary: 'Removes one of the signed-in user’s passkeys (step-up)' })
  @ApiEnvelope(null)
  async remove(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    await this.passkeys.remove(me.id, id);
  }

  @Post('login/options')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({
    summary:
      'Request options for signing in with a passkey: after the password step (its user’s passkeys) or without a password',
  })
  @ApiEnvelope(PasskeyRequestOptions, 'WebAuthn PublicKeyCredentialRequestOptionsJSON')
  loginOptions(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.passkeys.authenticationOptions(req, reply, 'auth', this.gate.pendingUser(req));
  }

  @Post('login')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Signs in with a passkey assertion; sets the session cookie → the login answer' })
  @ApiEnvelope(LoginResult)
  async login(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: PasskeyResponseDto,
  ) {
    assertJsonBody(req);
    const pending = this.gate.pending(req);
    // After the password step the assertion is the second factor and counts against its limit; a
    // passkey sign-in without a password is a first factor of its own (no code to guess).
    const waiting = pending && (await this.users.findById(pending.userId));
    const attempt =
      pending && waiting
        ? await this.limit.begin(req, waiting, 'login', {
            nonce: pending.nonce,
            expiresAt: pending.expiresAt,
            onEnded: () => this.gate.abandon(reply),
          })
        : null;
    const user = await settle(
      attempt,
      this.passkeys.authenticate(req, reply, 'auth', pending?.userId ?? null, body?.response),
    );
    this.gate.finish(req, reply, user.id);
    return loginResult(user);
  }

  @Post('step_up/options')
  @UserOnly()
  @ApiOperation({ summary: 'Request options for confirming the signed-in user with one of their passkeys' })
  @ApiEnvelope(PasskeyRequestOptions, 'WebAuthn PublicKeyCredentialRequestOptionsJSON')
  stepUpOptions(
    @CurrentUser() me: AuthUser,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.passkeys.authenticationOptions(req, reply, 'step', me.id);
  }

  @Post('step_up')
  @UserOnly()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({
    summary: 'Confirms the signed-in user with a passkey for sensitive actions → {expires_at}',
  })
  @ApiEnvelope(objectOf({ expires_at: INTEGER }))
  async confirm(
    @CurrentUser() me: AuthUser,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: PasskeyResponseDto,
  ) {
    const attempt = await this.limit.begin(req, await this.users.mustFind(me.id), 'step_up');
    await settle(attempt, this.passkeys.authenticate(req, reply, 'step', me.id, body?.response));
    if (me.via !== 'session') return { expires_at: 0 };
    return { expires_at: this.stepUp.mark(req, reply, me.id) };
  }
}

import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  ParseIntPipe,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import { IsOptional, IsString } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../common/app-error';
import { assertJsonBody } from '../../common/http/json-only';
import type { AuthUser } from '../../common/http/request-context';
import { UserStatus } from '../../database/entities';
import { AdminOnly, CurrentUser, Public, UserOnly } from '../../common/http/access';
import { loginResult } from '../auth';
import { SecondFactorGate } from '../auth';
import { StepUpService } from '../auth';
import { UserService } from '../user';
import { SecondFactorLimit } from './second-factor-limit.service';
import { TwoFactorService } from './two-factor.service';
import { ApiEnvelope, BOOLEAN, INTEGER, objectOf, STRING, STRINGS } from '../../common/http/api-envelope';
import { LoginResult } from '../auth';
import { TotpSetup } from './two-factor.service';

export class CodeDto {
  @ApiPropertyOptional({ description: 'a 6-digit authenticator code or a recovery code' })
  @IsOptional()
  @IsString()
  code?: string;
}

export class StepUpDto extends CodeDto {
  @ApiPropertyOptional({ description: 'the account password (accounts without a second factor)' })
  @IsOptional()
  @IsString()
  password?: string;
}

/** Two-factor sign-in (TOTP, recovery codes) and step-up checks of the signed-in user. */
const TWO_FACTOR_STATUS = objectOf({
  enabled: BOOLEAN,
  totp_enabled: BOOLEAN,
  recovery_codes_left: INTEGER,
  passkeys: {
    type: 'array',
    items: objectOf({ id: INTEGER, name: STRING, created_at: INTEGER, last_used_at: INTEGER }),
  },
  required_for_admins: { type: 'boolean', description: 'root requires admins to have a second factor' },
});

@ApiTags('security')
@Controller('api/user')
export class TwoFactorController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly gate: SecondFactorGate,
    private readonly stepUp: StepUpService,
    private readonly users: UserService,
    private readonly limit: SecondFactorLimit,
  ) {}

  @Post('login/2fa')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({
    summary:
      'Second step of a sign-in that answered {require_2fa: true}: a TOTP or recovery code; sets the session cookie',
  })
  @ApiEnvelope(LoginResult)
  async login(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: CodeDto,
  ) {
    assertJsonBody(req);
    const pending = this.gate.pending(req);
    const user = pending === null ? null : await this.users.findById(pending.userId);
    if (!pending || !user || user.deleted_at || user.status !== UserStatus.Enabled)
      throw fail('two_factor_pending_missing');
    const attempt = await this.limit.begin(req, user, 'login', {
      nonce: pending.nonce,
      expiresAt: pending.expiresAt,
      onEnded: () => this.gate.abandon(reply),
    });
    if (!(await this.twoFactor.verifyCode(user.id, body?.code))) {
      await attempt.failed();
      throw fail('two_factor_code_invalid');
    }
    await attempt.succeeded();
    this.gate.finish(req, reply, user.id);
    return loginResult(user);
  }

  @Get('2fa')
  @UserOnly()
  @ApiOperation({
    summary:
      'Second factors of the signed-in user → {enabled, totp_enabled, recovery_codes_left, passkeys, required_for_admins}',
  })
  @ApiEnvelope(TWO_FACTOR_STATUS)
  status(@CurrentUser() me: AuthUser) {
    return this.twoFactor.status(me.id);
  }

  @Post('2fa/totp/setup')
  @UserOnly()
  @ApiOperation({
    summary: 'Starts authenticator enrolment (step-up) → {secret, uri, qr_code}; shown this once',
  })
  @ApiEnvelope(TotpSetup)
  setupTotp(@CurrentUser() me: AuthUser) {
    return this.twoFactor.setup(me);
  }

  @Post('2fa/totp/enable')
  @UserOnly()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Completes enrolment with a first code → {recovery_codes} (shown this once)' })
  @ApiEnvelope(objectOf({ recovery_codes: STRINGS }))
  async enableTotp(@CurrentUser() me: AuthUser, @Body() body: CodeDto) {
    return { recovery_codes: await this.twoFactor.enable(me.id, body?.code) };
  }

  @Post('2fa/totp/disable')
  @UserOnly()
  @ApiOperation({ summary: 'Removes the authenticator and its recovery codes (step-up)' })
  @ApiEnvelope(null)
  async disableTotp(@CurrentUser() me: AuthUser) {
    await this.twoFactor.disable(me.id);
  }

  @Post('2fa/recovery_codes')
  @UserOnly()
  @ApiOperation({ summary: 'Replaces the recovery codes (step-up) → {recovery_codes}' })
  @ApiEnvelope(objectOf({ recovery_codes: STRINGS }))
  async recoveryCodes(@CurrentUser() me: AuthUser) {
    return { recovery_codes: await this.twoFactor.regenerateRecoveryCodes(me.id) };
  }

  @Post('step_up')
  @UserOnly()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({
    summary:
      'Confirms the signed-in user again for sensitive actions: a second-factor code when the account has one, else the password → {expires_at}',
  })
  @ApiEnvelope(objectOf({ expires_at: INTEGER }))
  async confirm(
    @CurrentUser() me: AuthUser,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: StepUpDto,
  ) {
    if (me.via !== 'session') return { expires_at: 0 };
    const user = await this.users.mustFind(me.id);
    if (user.two_factor) {
      if (!body?.code) throw fail('step_up_factor_required');
      const attempt = await this.limit.begin(req, user, 'step_up');
      if (!(await this.twoFactor.verifyCode(user.id, body.code))) {
        await attempt.failed();
        throw fail('two_factor_code_invalid');
      }
      await attempt.succeeded();
    } else {
      if (!user.password) throw fail('step_up_unavailable');
      if (!(await this.users.verifyPassword(body?.password ?? '', user.password)))
        throw fail('original_password_wrong');
    }
    return { expires_at: this.stepUp.mark(req, reply, me.id) };
  }
}

/** Admins remove a user's second factors (a lost phone); recorded in the audit trail. */
@ApiTags('security')
@Controller('api/user')
export class TwoFactorAdminController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly users: UserService,
  ) {}

  @Post(':id/2fa/reset')
  @AdminOnly()
  @ApiOperation({ summary: 'Removes every second factor of a user of a lower role (step-up)' })
  @ApiEnvelope(null)
  async reset(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    await this.users.getForAdmin(me, id); // the role rule: not a peer, not a higher role
    await this.twoFactor.reset(id);
  }

  // new-api's paths for the same help, one factor each (its admin tools call these).
  @Delete(':id/2fa')
  @AdminOnly()
  @ApiOperation({ summary: "Removes a lower-role user's authenticator app and recovery codes (step-up)" })
  @ApiEnvelope(null)
  async resetTotp(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    await this.users.getForAdmin(me, id);
    await this.twoFactor.resetTotp(id);
  }

  @Delete(':id/reset_passkey')
  @AdminOnly()
  @ApiOperation({ summary: 'Removes every passkey of a lower-role user (step-up)' })
  @ApiEnvelope(null)
  async resetPasskeys(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    await this.users.getForAdmin(me, id);
    await this.twoFactor.resetPasskeys(id);
  }
}

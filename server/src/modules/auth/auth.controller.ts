import { Body, Controller, Get, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../common/http/request-context';
import { CurrentUser, Public, UserOnly } from '../../common/http/access';
import { LoginDto, RegisterDto, ResetPasswordDto } from './auth.dto';
import { AuthService } from './auth.service';
import { ApiEnvelope, ApiEnvelopeOneOf, STRING } from '../../common/http/api-envelope';
import { LoginResult } from './auth.service';
import { TwoFactorChallenge } from './second-factor.service';
import { assertJsonBody } from '../../common/http/json-only';

/** Sign-in, sign-up, logout, email codes and password reset. The public ones are rate-limited per IP. */
@ApiTags('auth')
@Controller('api')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('user/login')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Password login (username or email); sets the session cookie' })
  @ApiEnvelopeOneOf([LoginResult, TwoFactorChallenge])
  login(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: LoginDto,
    @Query('turnstile') turnstile?: string,
  ) {
    assertJsonBody(req);
    return this.auth.login(req, reply, body ?? {}, turnstile);
  }

  @Post('user/register')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Password sign-up' })
  @ApiEnvelope(null)
  async register(
    @Req() req: FastifyRequest,
    @Body() body: RegisterDto,
    @Query('turnstile') turnstile?: string,
  ) {
    assertJsonBody(req);
    await this.auth.register(req, body ?? {}, turnstile);
  }

  @Get('user/logout')
  @Public()
  @ApiOperation({ summary: 'Ends the session' })
  @ApiEnvelope(null)
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.auth.logout(req, reply);
  }

  @Get('verification')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Emails a 6-digit code (purpose register, or bind); resend after 30 s' })
  @ApiEnvelope(null)
  async verification(
    @Req() req: FastifyRequest,
    @Query('email') email?: string,
    @Query('turnstile') turnstile?: string,
    @Query('purpose') purpose?: string,
  ) {
    await this.auth.sendVerificationCode(req, email, purpose, turnstile);
  }

  @Get('reset_password')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Emails a password reset link; always answers success' })
  @ApiEnvelope(null)
  async resetPasswordRequest(
    @Req() req: FastifyRequest,
    @Query('email') email?: string,
    @Query('turnstile') turnstile?: string,
  ) {
    await this.auth.sendPasswordReset(req, email, turnstile);
  }

  @Post('user/reset')
  @Public()
  @UseGuards(ThrottlerGuard)
  @ApiOperation({ summary: 'Consumes a reset link token; data is the new password' })
  @ApiEnvelope(STRING, 'the new password')
  resetPassword(@Body() body: ResetPasswordDto) {
    return this.auth.resetPassword(body ?? {});
  }

  @Get('oauth/email/bind')
  @UserOnly()
  @UseGuards(ThrottlerGuard) // a 6-digit code must not be guessable by trying them all
  @ApiOperation({ summary: 'Binds an email address with a code sent with purpose=bind' })
  @ApiEnvelope(null)
  async bindEmail(@CurrentUser() me: AuthUser, @Query('email') email?: string, @Query('code') code?: string) {
    await this.auth.bindEmail(me.id, email, code);
  }
}

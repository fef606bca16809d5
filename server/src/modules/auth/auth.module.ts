import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VerificationCode } from '../../database/entities';
import { LogModule } from '../log';
import { MailModule } from '../mail';
import { OptionModule } from '../option';
import { SetupModule } from '../setup';
import { UserModule } from '../user';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { SecondFactorGate } from './second-factor.service';
import { SessionService } from './session.service';
import { StepUpService } from './step-up.service';
import { TurnstileService } from './turnstile.service';
import { VerificationService } from './verification.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([VerificationCode]),
    OptionModule,
    UserModule,
    SetupModule,
    MailModule,
    LogModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SessionService,
    SecondFactorGate,
    StepUpService,
    TurnstileService,
    VerificationService,
    AuthGuard,
    { provide: APP_GUARD, useExisting: AuthGuard },
  ],
  exports: [
    AuthService,
    AuthGuard,
    SessionService,
    SecondFactorGate,
    StepUpService,
    VerificationService,
    TurnstileService,
  ],
})
export class AuthModule {}

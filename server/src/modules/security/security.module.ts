import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { OptionModule } from '../option/option.module';
import { UserModule } from '../user/user.module';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditService } from './audit.service';
import { PasskeyController } from './passkey.controller';
import { PasskeyService } from './passkey.service';
import { TwoFactorAdminController, TwoFactorController } from './two-factor.controller';
import { TwoFactorService } from './two-factor.service';

/** Account security: two-factor sign-in (TOTP, passkeys), step-up checks and the audit trail. */
@Module({
  imports: [OptionModule, UserModule, AuthModule],
  controllers: [AuditController, TwoFactorController, TwoFactorAdminController, PasskeyController],
  providers: [
    AuditService,
    TwoFactorService,
    PasskeyService,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [AuditService],
})
export class SecurityModule {}

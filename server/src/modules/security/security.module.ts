import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule } from '../auth';
import { LogModule } from '../log';
import { MailModule } from '../mail';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';
import { ManageLogInterceptor } from './manage-log.interceptor';
import { PasskeyController } from './passkey.controller';
import { PasskeyService } from './passkey.service';
import { SecondFactorLimit } from './second-factor-limit.service';
import { TwoFactorAdminController, TwoFactorController } from './two-factor.controller';
import { TwoFactorService } from './two-factor.service';

/**
 * Account security: two-factor sign-in (TOTP, passkeys), step-up checks and the audit trail. The
 * management-log interceptor writes both the management log (through LogService) and the audit trail
 * of every admin action. Global, so that other modules may record audit entries through AuditService.
 */
@Global()
@Module({
  imports: [OptionModule, UserModule, AuthModule, LogModule, MailModule],
  controllers: [AuditController, TwoFactorController, TwoFactorAdminController, PasskeyController],
  providers: [
    AuditService,
    TwoFactorService,
    PasskeyService,
    SecondFactorLimit,
    { provide: APP_INTERCEPTOR, useClass: ManageLogInterceptor },
  ],
  exports: [AuditService],
})
export class SecurityModule {}

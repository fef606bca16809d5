import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OptionModule } from '../option/option.module';
import { UserModule } from '../user/user.module';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';
import { PasskeyController } from './passkey.controller';
import { PasskeyService } from './passkey.service';
import { TwoFactorAdminController, TwoFactorController } from './two-factor.controller';
import { TwoFactorService } from './two-factor.service';

/**
 * Account security: two-factor sign-in (TOTP, passkeys), step-up checks and the audit trail. Global, so
 * that the management-log interceptor (log module) writes the audit trail through AuditService.
 */
@Global()
@Module({
  imports: [OptionModule, UserModule, AuthModule],
  controllers: [AuditController, TwoFactorController, TwoFactorAdminController, PasskeyController],
  providers: [AuditService, TwoFactorService, PasskeyService],
  exports: [AuditService],
})
export class SecurityModule {}

import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OptionModule } from '../option/option.module';
import { UserModule } from '../user/user.module';
import { PricingController } from './pricing.controller';
import { PricingService } from './pricing.service';

@Module({
  imports: [AuthModule, OptionModule, UserModule],
  controllers: [PricingController],
  providers: [PricingService],
})
export class PricingModule {}

import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { PricingController } from './pricing.controller';
import { PricingService } from './pricing.service';

@Module({
  imports: [AuthModule, OptionModule, UserModule],
  controllers: [PricingController],
  providers: [PricingService],
})
export class PricingModule {}

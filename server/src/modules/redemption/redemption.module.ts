import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Redemption } from '../../database/entities';
import { TopUpModule } from '../topup';
import { RedeemController, RedemptionController } from './redemption.controller';
import { RedemptionService } from './redemption.service';

@Module({
  imports: [TypeOrmModule.forFeature([Redemption]), TopUpModule],
  controllers: [RedemptionController, RedeemController],
  providers: [RedemptionService],
})
export class RedemptionModule {}

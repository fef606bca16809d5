import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TopUp } from '../../database/entities';
import { LogModule } from '../log';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { TopUpController } from './topup.controller';
import { TopUpService } from './topup.service';
import { WalletCreditService } from './wallet-credit.service';

/** The wallet: online top-up (epay), top-up orders, and the credit path redemption codes use too. */
@Module({
  imports: [TypeOrmModule.forFeature([TopUp]), UserModule, LogModule, OptionModule],
  controllers: [TopUpController],
  providers: [TopUpService, WalletCreditService],
  exports: [WalletCreditService],
})
export class TopUpModule {}

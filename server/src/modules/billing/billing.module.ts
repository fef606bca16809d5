import { Module } from '@nestjs/common';
import { OptionModule } from '../option/option.module';
import { QuotaLedgerService } from './quota-ledger.service';

@Module({ imports: [OptionModule], providers: [QuotaLedgerService], exports: [QuotaLedgerService] })
export class BillingModule {}

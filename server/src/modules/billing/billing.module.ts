import { Module } from '@nestjs/common';
import { OptionModule } from '../option';
import { QuotaLedgerService } from './quota-ledger.service';

@Module({ imports: [OptionModule], providers: [QuotaLedgerService], exports: [QuotaLedgerService] })
export class BillingModule {}

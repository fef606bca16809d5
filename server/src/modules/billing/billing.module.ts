import { Module } from '@nestjs/common';
import { QuotaLedgerService } from './quota-ledger.service';

@Module({ providers: [QuotaLedgerService], exports: [QuotaLedgerService] })
export class BillingModule {}

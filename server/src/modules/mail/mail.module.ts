import { Module } from '@nestjs/common';
import { OptionModule } from '../option/option.module';
import { MailService } from './mail.service';

@Module({ imports: [OptionModule], providers: [MailService], exports: [MailService] })
export class MailModule {}

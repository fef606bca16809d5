import { Module } from '@nestjs/common';
import { OptionModule } from '../option';
import { MailService } from './mail.service';

@Module({ imports: [OptionModule], providers: [MailService], exports: [MailService] })
export class MailModule {}

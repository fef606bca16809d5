import { Module } from '@nestjs/common';
import { OptionModule } from '../option';
import { ReportController } from './report.controller';
import { ReportService } from './report.service';

/** Usage and spend reports read from the consumption logs. */
@Module({ imports: [OptionModule], controllers: [ReportController], providers: [ReportService] })
export class ReportModule {}

import { Module } from '@nestjs/common';
import { OptionModule } from '../option';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

@Module({ imports: [OptionModule], controllers: [DashboardController], providers: [DashboardService] })
export class DashboardModule {}

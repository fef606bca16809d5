import { Module } from '@nestjs/common';
import { OptionModule } from '../option/option.module';
import { SetupModule } from '../setup/setup.module';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

@Module({ imports: [OptionModule, SetupModule], controllers: [StatusController], providers: [StatusService] })
export class StatusModule {}

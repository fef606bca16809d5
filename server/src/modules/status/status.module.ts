import { Module } from '@nestjs/common';
import { OptionModule } from '../option';
import { SetupModule } from '../setup';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

@Module({ imports: [OptionModule, SetupModule], controllers: [StatusController], providers: [StatusService] })
export class StatusModule {}

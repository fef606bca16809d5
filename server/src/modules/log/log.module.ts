import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogEntry } from '../../database/entities';
import { LogService } from './log.service';

@Module({ imports: [TypeOrmModule.forFeature([LogEntry])], providers: [LogService], exports: [LogService] })
export class LogModule {}

import { Module } from '@nestjs/common';
import { OptionModule } from '../option';
import { UserModule } from '../user';
import { SetupController } from './setup.controller';
import { SetupService } from './setup.service';

@Module({
  imports: [OptionModule, UserModule],
  controllers: [SetupController],
  providers: [SetupService],
  exports: [SetupService],
})
export class SetupModule {}

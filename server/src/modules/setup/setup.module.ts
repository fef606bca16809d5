import { Module } from '@nestjs/common';
import { OptionModule } from '../option/option.module';
import { UserModule } from '../user/user.module';
import { SetupController } from './setup.controller';
import { SetupService } from './setup.service';

@Module({
  imports: [OptionModule, UserModule],
  controllers: [SetupController],
  providers: [SetupService],
  exports: [SetupService],
})
export class SetupModule {}

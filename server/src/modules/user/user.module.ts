import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../../database/entities';
import { LogModule } from '../log';
import { OptionModule } from '../option';
import { GroupController } from './group.controller';
import { UserCacheService } from './user-cache.service';
import { UserController } from './user.controller';
import { UserGroupsService } from './user-groups.service';
import { UserService } from './user.service';

@Module({
  imports: [TypeOrmModule.forFeature([User]), OptionModule, LogModule],
  controllers: [UserController, GroupController],
  providers: [UserService, UserCacheService, UserGroupsService],
  exports: [UserService, UserCacheService, UserGroupsService],
})
export class UserModule {}

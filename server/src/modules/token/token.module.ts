import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Token } from '../../database/entities';
import { UserModule } from '../user';
import { TokenManageService } from './token-manage.service';
import { TokenController } from './token.controller';
import { TokenService } from './token.service';

@Module({
  imports: [TypeOrmModule.forFeature([Token]), UserModule],
  controllers: [TokenController],
  providers: [TokenService, TokenManageService],
  exports: [TokenService],
})
export class TokenModule {}

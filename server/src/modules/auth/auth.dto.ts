import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

export class LoginDto {
  @ApiPropertyOptional({ description: 'username or email' }) @IsOptional() @IsString() username?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() password?: string;
}

export class RegisterDto {
  @ApiPropertyOptional({ maxLength: 12 }) @IsOptional() @IsString() username?: string;
  @ApiPropertyOptional({ minLength: 8, maxLength: 20 }) @IsOptional() @IsString() password?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() password2?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() email?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() verification_code?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() aff_code?: string;
}

export class ResetPasswordDto {
  @ApiPropertyOptional() @IsOptional() @IsString() email?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() token?: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** A channel not yet saved: what is needed to ask its provider for the model list. */
export class FetchModelsDto {
  @ApiProperty({ description: 'channel type id', example: 1 }) @IsInt() type!: number;
  @ApiPropertyOptional({ description: "http(s) base URL; empty → the type's default" })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(/^$|^https?:\/\/[^\s/?#]+/i)
  base_url?: string;
  @ApiProperty({ description: 'the key (first line used when several)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(65536)
  key!: string;
}

import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/http/access';
import { UserGroupsService } from './user-groups.service';
import { ApiEnvelope, STRINGS } from '../../common/http/api-envelope';

@ApiTags('users')
@Controller('api/group')
export class GroupController {
  constructor(private readonly groups: UserGroupsService) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Group names (keys of GroupRatio)' })
  @ApiEnvelope(STRINGS)
  list(): string[] {
    return this.groups.allGroups();
  }
}

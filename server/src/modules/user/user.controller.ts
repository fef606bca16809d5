import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../common/http/request-context';
import { parsePage } from '../../common/pagination';
import { AdminOnly, CurrentUser, UserOnly } from '../../common/http/access';
import { setSessionCookie } from '../../common/http/session-cookie';
import { readStepUpCookie, setStepUpCookie } from '../../common/http/step-up-cookie';
import {
  AffTransferDto,
  CreateUserDto,
  DeleteSelfDto,
  ManageUserDto,
  UpdateSelfDto,
  UpdateUserDto,
  UserSettingDto,
} from './user.dto';
import { mergeSetting, parseSetting } from './user-setting';
import { UserGroupsService } from './user-groups.service';
import { UserService } from './user.service';
import { ApiEnvelope, ApiPage, INTEGER, objectOf, STRING, STRINGS } from '../../common/http/api-envelope';
import { getSchemaPath } from '@nestjs/swagger';
import { GroupInfo } from './user-groups.service';
import { UserView } from './user.view';

@ApiTags('users')
@Controller('api/user')
export class UserController {
  constructor(
    private readonly users: UserService,
    private readonly groups: UserGroupsService,
  ) {}

  // ---- self ----

  @Get('self')
  @UserOnly()
  @ApiOperation({ summary: 'The signed-in user (no password or access token)' })
  @ApiEnvelope(UserView)
  self(@CurrentUser() me: AuthUser) {
    return this.users.selfView(me.id);
  }

  @Put('self')
  @UserOnly()
  @ApiOperation({ summary: 'Changes display_name and/or password (original_password needed)' })
  @ApiEnvelope(null)
  async updateSelf(
    @CurrentUser() me: AuthUser,
    @Body() body: UpdateSelfDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // A new password ends every session issued before it, this one too: the browser that changed it
    // gets a fresh session and stays signed in.
    if (!(await this.users.updateSelf(me, body)) || me.via !== 'session') return;
    const session = setSessionCookie(req, reply, me.id);
    // The check this change was made under carries over to the new session (never extended).
    const proof = readStepUpCookie(req);
    if (proof && proof.sid === me.sessionId && proof.uid === me.id)
      setStepUpCookie(req, reply, { ...proof, sid: session.sid });
  }

  @Delete('self')
  @UserOnly()
  @ApiOperation({ summary: 'Deregisters the own account; body {username} must equal the account name' })
  @ApiEnvelope(null)
  async deleteSelf(
    @CurrentUser() me: AuthUser,
    @Body() body: DeleteSelfDto,
    @Query('username') username?: string,
  ) {
    await this.users.deleteSelf(me, body?.username ?? username);
  }

  @Get('token')
  @UserOnly()
  @ApiOperation({ summary: 'Issues a new system access token (the old one stops working)' })
  @ApiEnvelope(STRING, 'a new access token (the previous one stops working)')
  token(@CurrentUser() me: AuthUser) {
    return this.users.regenerateAccessToken(me.id);
  }

  @Get('aff')
  @UserOnly()
  @ApiOperation({ summary: 'The invitation code' })
  @ApiEnvelope(STRING, 'the invitation code')
  aff(@CurrentUser() me: AuthUser) {
    return this.users.affCode(me.id);
  }

  @Post('aff_transfer')
  @UserOnly()
  @ApiOperation({ summary: 'Moves invitation earnings into the balance (at least one unit)' })
  @ApiEnvelope(null)
  async affTransfer(@CurrentUser() me: AuthUser, @Body() body: AffTransferDto) {
    await this.users.affTransfer(me, body.quota);
  }

  @Put('setting')
  @UserOnly()
  @ApiOperation({ summary: 'Notification settings' })
  @ApiEnvelope(null)
  async setting(@CurrentUser() me: AuthUser, @Body() body: UserSettingDto) {
    const user = await this.users.mustFind(me.id);
    await this.users.saveSetting(me.id, { ...mergeSetting(parseSetting(user.setting), body) });
  }

  @Get('self/groups')
  @UserOnly()
  @ApiOperation({ summary: 'Groups the user may choose: {group: {ratio, desc}}' })
  @ApiEnvelope(
    {
      type: 'object',
      additionalProperties: { $ref: getSchemaPath(GroupInfo) },
      description: 'group → ratio, description',
    },
    { models: [GroupInfo] },
  )
  selfGroups(@CurrentUser() me: AuthUser) {
    return this.groups.usableGroups(me.group);
  }

  @Get('models')
  @UserOnly()
  @ApiOperation({
    summary: 'Model names the user can call, priced as the relay prices them (optionally in one group)',
  })
  @ApiEnvelope(STRINGS)
  models(@CurrentUser() me: AuthUser, @Query('group') group?: string) {
    return this.groups.callableModels(me, group || undefined);
  }

  // ---- admin ----

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Paged user list' })
  @ApiPage(UserView)
  list(@Query() query: Record<string, unknown>) {
    return this.users.list(parsePage(query));
  }

  @Get('search')
  @AdminOnly()
  @ApiOperation({ summary: 'Search by keyword (id, username, email, display name) and group' })
  @ApiPage(UserView)
  search(@Query() query: Record<string, unknown>) {
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return this.users.search(str(query.keyword), str(query.group), parsePage(query));
  }

  @Post('manage')
  @AdminOnly()
  @ApiOperation({ summary: 'promote, demote, disable, enable, delete or add_quota' })
  @ApiEnvelope(objectOf({ status: INTEGER, role: INTEGER, quota: INTEGER }, ['quota']))
  manage(@CurrentUser() me: AuthUser, @Body() body: ManageUserDto) {
    return this.users.manage(me, body);
  }

  @Post()
  @AdminOnly()
  @ApiOperation({ summary: 'Creates an ordinary user' })
  @ApiEnvelope(null)
  async create(@CurrentUser() me: AuthUser, @Body() body: CreateUserDto) {
    await this.users.adminCreate(me, body);
  }

  @Put()
  @AdminOnly()
  @ApiOperation({ summary: 'Updates username, display name, password, group and quota (as a delta)' })
  @ApiEnvelope(UserView)
  update(@CurrentUser() me: AuthUser, @Body() body: UpdateUserDto) {
    return this.users.adminUpdate(me, body);
  }

  @Get(':id')
  @AdminOnly()
  @ApiOperation({ summary: 'One user' })
  @ApiEnvelope(UserView)
  get(@CurrentUser() me: AuthUser, @Param('id', ParseIntPipe) id: number) {
    return this.users.getForAdmin(me, id);
  }
}

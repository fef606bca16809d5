/**
 * The user module's public face: other modules import it only through this file (an ESLint rule keeps
 * it so); everything else under modules/user/ is the module's own.
 */
export { formatQuota } from './quota-format';
export { UserCacheService } from './user-cache.service';
export type { UserSnapshot } from './user-cache.service';
export { UserGroupsService } from './user-groups.service';
export { checkEmail, checkPassword, checkUsername, DISPLAY_NAME_MAX, USERNAME_MAX } from './user-rules';
export { parseSetting } from './user-setting';
export { UserModule } from './user.module';
export { UserService } from './user.service';

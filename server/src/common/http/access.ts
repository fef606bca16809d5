import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from './request-context';
import { Role } from '../../database/entities';

/** 'public', or the least role (1 user, 10 admin, 100 root). */
export type AccessLevel = 'public' | Role;

export const ACCESS_LEVEL = 'gatehouse:access';
export const BEFORE_SETUP = 'gatehouse:before-setup';

const signedIn = (level: AccessLevel) =>
  applyDecorators(
    SetMetadata(ACCESS_LEVEL, level),
    ApiCookieAuth('session'),
    ApiBearerAuth('access-token'),
    ApiHeader({ name: 'New-Api-User', required: true, description: 'id of the signed-in user' }),
  );

/** Anyone, signed in or not. */
export const Public = () => SetMetadata(ACCESS_LEVEL, 'public');
/** Any signed-in, enabled user. */
export const UserOnly = () => signedIn(Role.User);
/** Admins (role ≥ 10). */
export const AdminOnly = () => signedIn(Role.Admin);
/** The super admin (role 100). */
export const RootOnly = () => signedIn(Role.Root);
/** Reachable before the first-run setup is done. */
export const AllowBeforeSetup = () => SetMetadata(BEFORE_SETUP, true);

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  if (!req.auth) throw new Error('CurrentUser used on a route without authentication');
  return req.auth;
});

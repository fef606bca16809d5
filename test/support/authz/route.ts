/**
 * The authorization matrix's route table: types and the `r` helper. Each area keeps its routes in its
 * own file beside this one (test/support/authz/<area>.ts), spread into ROUTES by authz-matrix.e2e.ts.
 */
import type { ApiClient, TestApp } from '../test-app';

export type Level = 'public' | 'user' | 'admin' | 'root';
export type Method = 'get' | 'post' | 'put' | 'delete';
export type Actor = 'anonymous' | 'user' | 'admin' | 'root' | 'banned' | 'deregistered';

export interface Ctx {
  victimId: number;
}

export interface Route {
  method: Method;
  /** As the OpenAPI document names it ({id} for the path parameter). */
  path: string;
  /** The least caller allowed. */
  level: Level;
  query?: string;
  /** A body that would change something if the call were allowed (so a refused call can be checked). */
  body?: (c: Ctx) => unknown;
  /** Runs (as root) before each cell, e.g. to make a reset observable. */
  prepare?: (root: ApiClient) => Promise<void>;
  /** Checked after each allowed cell: the call really did something. */
  effect?: (t: TestApp) => Promise<void>;
  /** Ends the caller's session: run it on a spare session of the actor. */
  endsSession?: boolean;
  /** An allowed call answers this instead of the JSON envelope (a download). */
  contentType?: RegExp;
  /** An allowed call answers outside the envelope, without `message` (GET /api/pricing). */
  noMessage?: boolean;
  label?: string;
}

export const r = (method: Method, path: string, level: Level, opts: Partial<Route> = {}): Route => ({
  method,
  path,
  level,
  ...opts,
});

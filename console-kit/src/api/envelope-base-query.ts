import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query';
import type { ConsoleRuntime } from '../provider/console-runtime';
import { StorageKeys } from '../provider/console-storage';
import { sessionCleared } from '../provider/session-slice';
import type { ApiEnvelope, ApiError, SessionUser } from './api-types';
import { confirmStepUp, isStepUpRequired } from './step-up-prompt';

export const SESSION_EXPIRED_PATH = '/login?expired=true';

const rawBaseQuery = fetchBaseQuery({
  credentials: 'include',
  prepareHeaders: (headers, { extra }) => {
    const { storage, auth } = extra as ConsoleRuntime;
    const language = (extra as ConsoleRuntime).language();
    // The server answers (errors, log texts, names it translates) in the console's language.
    if (language) {
      headers.set('Accept-Language', language);
    }
    if (auth) {
      headers.set('Authorization', `Bearer ${auth.accessToken}`);
      headers.set('New-Api-User', String(auth.userId));
    } else {
      const user = storage.getJson<Pick<SessionUser, 'id'>>(StorageKeys.user);
      // The server checks this header against the session on every call; it is also the CSRF guard.
      if (user && user.id !== undefined && user.id !== null) {
        headers.set('New-Api-User', String(user.id));
      }
    }
    headers.set('Cache-Control', 'no-store');
    return headers;
  },
});

function isEnvelope(value: unknown): value is ApiEnvelope {
  return typeof value === 'object' && value !== null && typeof (value as ApiEnvelope).success === 'boolean';
}

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string') {
      return message;
    }
    if (
      typeof error === 'object' &&
      error !== null &&
      typeof (error as { message?: unknown }).message === 'string'
    ) {
      return (error as { message: string }).message;
    }
  }
  return typeof body === 'string' ? body : '';
}

function toApiError(error: FetchBaseQueryError): ApiError {
  switch (error.status) {
    case 'FETCH_ERROR':
      return { status: 'NETWORK', message: error.error };
    case 'TIMEOUT_ERROR':
      return { status: 'TIMEOUT', message: error.error };
    case 'PARSING_ERROR':
      // A real status with a body that is not JSON (a proxy's HTML error page, say).
      return error.originalStatus >= 400
        ? { status: error.originalStatus, message: '' }
        : { status: 'PARSE', message: error.error };
    case 'CUSTOM_ERROR':
      return { status: 'NETWORK', message: error.error, data: error.data };
    default:
      return { status: error.status, message: messageOf(error.data), data: error.data };
  }
}

/**
 * Unwraps `{success, message, data}`: success → `data`, success:false → an {@link ApiError} carrying the
 * server's message. Answers that are not envelopes (the few compatibility exceptions, docs/decisions.md#envelope-exceptions)
 * pass through untouched. A 401 ends the local session and sends the browser to the login page. The
 * message of a successful envelope travels in `meta.message` for the endpoints that need it.
 */
/** The request and response, plus the envelope's `message` of a successful answer. */
export type EnvelopeMeta = Partial<FetchBaseQueryMeta> & { message?: string };

export const envelopeBaseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  ApiError,
  object,
  EnvelopeMeta
> = async (args, api, extraOptions) => {
  const runtime = api.extra as ConsoleRuntime;
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const result = await rawBaseQuery(
    { ...request, url: `${runtime.apiBase}${request.url}` },
    api,
    extraOptions,
  );

  if (result.error) {
    const error = toApiError(result.error);
    // A sensitive action needs a fresh check: once the person confirms, the call is sent again.
    if (isStepUpRequired(error) && (await confirmStepUp(runtime))) {
      return envelopeBaseQuery(args, api, extraOptions);
    }
    if (error.status === 401) {
      runtime.storage.removeItem(StorageKeys.user);
      api.dispatch(sessionCleared());
      runtime.navigate(SESSION_EXPIRED_PATH);
    }
    return { error, meta: result.meta };
  }

  const body = result.data;
  if (!isEnvelope(body)) {
    return { data: body, meta: result.meta };
  }
  if (!body.success) {
    return { error: { status: 'ENVELOPE', message: body.message ?? '', data: body.data }, meta: result.meta };
  }
  return { data: body.data, meta: { ...result.meta, message: body.message ?? '' } };
};

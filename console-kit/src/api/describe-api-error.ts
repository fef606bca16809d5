import type { TFunction } from 'i18next';
import type { ApiError } from './api-types';

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'status' in value && 'message' in value;
}

/**
 * The text a person sees for a failed call, following the spec's global handler: the server's own
 * message for business failures, fixed texts for 401/429/500/405 and for an unreachable server.
 * `fallback` is used when the server gave no message.
 */
export function describeApiError(error: unknown, t: TFunction, fallback?: string): string {
  if (!isApiError(error)) {
    return fallback ?? t('common:errors.requestFailed');
  }
  switch (error.status) {
    case 'ENVELOPE':
      return error.message || fallback || t('common:errors.requestFailed');
    case 401:
      return t('common:errors.sessionExpired');
    case 429:
      return t('common:errors.tooManyRequests');
    case 500:
      return t('common:errors.serverError');
    case 405:
      return t('common:errors.demoSite');
    case 'NETWORK':
    case 'TIMEOUT':
      return t('common:errors.network');
    default:
      return error.message
        ? t('common:errors.withMessage', { message: error.message })
        : (fallback ?? t('common:errors.requestFailed'));
  }
}

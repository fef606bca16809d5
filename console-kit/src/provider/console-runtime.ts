import type { ConsoleStorage } from './console-storage';

/**
 * The integration path for back-office systems (docs/decisions.md#management-auth): a system access token from
 * `GET /api/user/token` and the id of its user, sent as `Authorization: Bearer` and `New-Api-User`
 * instead of relying on the session cookie.
 */
export interface ConsoleAuth {
  userId: number;
  accessToken: string;
}

/**
 * What the API layer needs from the mount it runs in. It travels to the base query as the thunk
 * `extra` argument, so the api slice itself stays a module-level singleton shared by every mount.
 */
export interface ConsoleRuntime {
  readonly apiBase: string;
  readonly storage: ConsoleStorage;
  readonly auth?: ConsoleAuth;
  /** The interface language, sent with every call so the server answers in it ('' until known). */
  language(): string;
  setLanguage(language: string): void;
  /** Goes to a console path: through the host's router when one is attached, else a full page load. */
  navigate(to: string): void;
  /** Routes `navigate` through a router until the returned function detaches it again. */
  attachNavigator(navigator: (to: string) => void): () => void;
}

export function createConsoleRuntime(
  apiBase: string,
  storage: ConsoleStorage,
  auth?: ConsoleAuth,
): ConsoleRuntime {
  let attached: ((to: string) => void) | null = null;
  let language = '';
  return {
    apiBase: apiBase.replace(/\/+$/, ''),
    storage,
    auth,
    language: () => language,
    setLanguage(next) {
      language = next;
    },
    navigate(to) {
      if (attached) {
        attached(to);
      } else if (typeof window !== 'undefined') {
        window.location.assign(to);
      }
    },
    attachNavigator(navigator) {
      attached = navigator;
      return () => {
        if (attached === navigator) {
          attached = null;
        }
      };
    },
  };
}

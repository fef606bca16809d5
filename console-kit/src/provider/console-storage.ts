/**
 * Every key the kit writes goes through this wrapper so that a portal can mount the console with a
 * `storagePrefix` and keep its own localStorage untouched. The host app uses an empty prefix, which
 * gives the spec's plain key names (user, status, theme-mode, i18nextLng...).
 */
export interface ConsoleStorage {
  readonly prefix: string;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  getJson<T>(key: string): T | null;
  setJson(key: string, value: unknown): void;
}

type BackingStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function createMemoryBackingStore(): BackingStore {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

function defaultBackingStore(): BackingStore {
  // Reading window.localStorage throws in some privacy modes and does not exist outside a browser.
  try {
    if (typeof window !== 'undefined' && window.localStorage) {
      return window.localStorage;
    }
  } catch {
    // fall through to memory
  }
  return createMemoryBackingStore();
}

export function createConsoleStorage(
  prefix = '',
  backing: BackingStore = defaultBackingStore(),
): ConsoleStorage {
  const fullKey = (key: string): string => `${prefix}${key}`;
  const safely = <T>(action: () => T, fallback: T): T => {
    try {
      return action();
    } catch {
      // Quota exceeded or storage disabled: the console keeps working without persistence.
      return fallback;
    }
  };
  return {
    prefix,
    getItem: (key) => safely(() => backing.getItem(fullKey(key)), null),
    setItem: (key, value) => safely(() => backing.setItem(fullKey(key), value), undefined),
    removeItem: (key) => safely(() => backing.removeItem(fullKey(key)), undefined),
    getJson<T>(key: string): T | null {
      const raw = this.getItem(key);
      if (raw === null) {
        return null;
      }
      try {
        return JSON.parse(raw) as T;
      } catch {
        return null;
      }
    },
    setJson(key, value) {
      this.setItem(key, JSON.stringify(value));
    },
  };
}

/** The localStorage key names, as the spec lists them (docs/decisions.md#storage-keys), plus the kit's own few. */
export const StorageKeys = {
  user: 'user',
  status: 'status',
  themeMode: 'theme-mode',
  language: 'i18nextLng',
  /** Invite code from `?aff=`, kept until registration. */
  aff: 'aff',
  pageSize: 'page-size',
  modelsExpanded: 'modelsExpanded',
  /** The models of each channel type (GET /api/models), kept as the spec's local cache. */
  channelModels: 'channel_models',
  /** Status fields the spec also keeps under their own names. */
  systemName: 'system_name',
  logo: 'logo',
  footerHtml: 'footer_html',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  docsLink: 'docs_link',
  chats: 'chats',
  defaultCollapseSidebar: 'default_collapse_sidebar',
  enableDataExport: 'enable_data_export',
  enableDrawing: 'enable_drawing',
  enableTask: 'enable_task',
  mjNotifyEnabled: 'mj_notify_enabled',
  /** The visitor's own sidebar choice; until one is made, the status's default_collapse_sidebar. */
  sidebarCollapsed: 'sidebar-collapsed',
  /** The day (YYYY-MM-DD) the notice was closed "for today". */
  noticeClosedDate: 'notice_close_date',
} as const;

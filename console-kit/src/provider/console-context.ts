import { createContext, useContext } from 'react';
import type { AlertColor } from '@mui/material';
import type { ConsoleRuntime } from './console-runtime';
import type { ConsoleStorage } from './console-storage';
import type { ThemeMode } from './console-theme';

export interface ConsoleContextValue {
  runtime: ConsoleRuntime;
  themeMode: ThemeMode;
  setThemeMode: (mode: ThemeMode) => void;
  notify: (message: string, severity?: AlertColor) => void;
  /** Shows `text` in a dialog for copying by hand (when the clipboard refused). */
  showManualCopy: (text: string) => void;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

function useConsoleContext(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) {
    throw new Error('Gatehouse console components must be rendered inside <GatehouseConsole>.');
  }
  return value;
}

export function useConsoleStorage(): ConsoleStorage {
  return useConsoleContext().runtime.storage;
}

export function useThemeMode(): { mode: ThemeMode; setMode: (mode: ThemeMode) => void; toggle: () => void } {
  const { themeMode, setThemeMode } = useConsoleContext();
  return {
    mode: themeMode,
    setMode: setThemeMode,
    toggle: () => setThemeMode(themeMode === 'dark' ? 'light' : 'dark'),
  };
}

export function useConsoleRuntime(): ConsoleRuntime {
  return useConsoleContext().runtime;
}

/** Shows a text in a dialog for copying by hand. */
export function useManualCopy(): ConsoleContextValue['showManualCopy'] {
  return useConsoleContext().showManualCopy;
}

/** Shows a short message in the console's snackbar. */
export function useNotify(): ConsoleContextValue['notify'] {
  return useConsoleContext().notify;
}

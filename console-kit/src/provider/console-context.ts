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

/** Shows a short message in the console's snackbar. */
export function useNotify(): ConsoleContextValue['notify'] {
  return useConsoleContext().notify;
}

import { createTheme, type PaletteMode, type Theme } from '@mui/material/styles';

export type ThemeMode = PaletteMode;

export function parseThemeMode(value: string | null | undefined): ThemeMode | null {
  return value === 'light' || value === 'dark' ? value : null;
}

/**
 * Without a host theme: MUI's defaults in the chosen mode. With one: the host's brand (primary and
 * secondary colours, font, shape, spacing, direction) re-derived for the chosen mode, so the console
 * looks like part of the portal in light and in dark.
 */
export function buildConsoleTheme(mode: ThemeMode, hostTheme?: Theme): Theme {
  if (!hostTheme) {
    return createTheme({ palette: { mode } });
  }
  return createTheme({
    palette: {
      mode,
      primary: { main: hostTheme.palette.primary.main },
      secondary: { main: hostTheme.palette.secondary.main },
    },
    typography: { fontFamily: hostTheme.typography.fontFamily },
    shape: hostTheme.shape,
    spacing: hostTheme.spacing,
    direction: hostTheme.direction,
  });
}

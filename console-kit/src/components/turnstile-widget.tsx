import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { useThemeMode } from '../provider/console-context';
import { useSystemStatus } from '../provider/use-system-status';

interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      theme?: 'light' | 'dark' | 'auto';
      callback?: (token: string) => void;
      'expired-callback'?: () => void;
      'error-callback'?: () => void;
    },
  ): string;
  reset(widgetId?: string): void;
  remove(widgetId: string): void;
}

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

let loading: Promise<TurnstileApi> | null = null;

function turnstileGlobal(): TurnstileApi | undefined {
  return (window as unknown as { turnstile?: TurnstileApi }).turnstile;
}

/** Loads Cloudflare's script once per page; later mounts reuse it. */
function loadTurnstile(): Promise<TurnstileApi> {
  const ready = turnstileGlobal();
  if (ready) {
    return Promise.resolve(ready);
  }
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const api = turnstileGlobal();
      if (api) {
        resolve(api);
      } else {
        reject(new Error('Turnstile did not load'));
      }
    };
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('Turnstile did not load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export interface TurnstileWidgetProps {
  siteKey: string;
  onToken: (token: string) => void;
  /** Changing it renders a fresh challenge (a token works once). */
  generation?: number;
}

export function TurnstileWidget({ siteKey, onToken, generation = 0 }: TurnstileWidgetProps) {
  const container = useRef<HTMLDivElement | null>(null);
  const { mode } = useThemeMode();
  const tokenHandler = useRef(onToken);
  useEffect(() => {
    tokenHandler.current = onToken;
  }, [onToken]);

  useEffect(() => {
    let widgetId: string | null = null;
    let cancelled = false;
    loadTurnstile()
      .then((api) => {
        if (cancelled || !container.current) {
          return;
        }
        widgetId = api.render(container.current, {
          sitekey: siteKey,
          theme: mode,
          callback: (token) => tokenHandler.current(token),
          'expired-callback': () => tokenHandler.current(''),
          'error-callback': () => tokenHandler.current(''),
        });
      })
      .catch(() => tokenHandler.current(''));
    return () => {
      cancelled = true;
      if (widgetId !== null) {
        turnstileGlobal()?.remove(widgetId);
      }
    };
  }, [siteKey, mode, generation]);

  return (
    <Box
      ref={container}
      data-testid="turnstile"
      sx={{ minHeight: 65, display: 'flex', justifyContent: 'center' }}
    />
  );
}

/**
 * The human check of a form, when the status turns it on: the widget to render, the current token,
 * and `renew()` to ask for a fresh challenge after a token was spent.
 */
export function useHumanCheck(): { required: boolean; token: string; widget: ReactNode; renew: () => void } {
  const { status } = useSystemStatus();
  const siteKey = typeof status?.turnstile_site_key === 'string' ? status.turnstile_site_key : '';
  const required = Boolean(status?.turnstile_check && siteKey);
  const [token, setToken] = useState('');
  const [generation, setGeneration] = useState(0);
  const renew = useCallback(() => {
    setToken('');
    setGeneration((value) => value + 1);
  }, []);
  const widget = required ? (
    <TurnstileWidget siteKey={siteKey} onToken={setToken} generation={generation} />
  ) : null;
  return { required, token, widget, renew };
}

import { useEffect, useId, useRef } from 'react';
import { Box } from '@mui/material';
import type { TelegramAuthData } from '../lib/auth-api';

export const TELEGRAM_WIDGET_URL = 'https://telegram.org/js/telegram-widget.js?22';

export interface TelegramLoginButtonProps {
  botName: string;
  /**
   * The widget hands the signed fields to this function; the caller sends them through the console's API
   * client (sign-in, or binding with the session and `New-Api-User`). The widget's own redirect
   * (`data-auth-url`) is not used: a top-level navigation cannot carry `New-Api-User`.
   */
  onAuth: (data: TelegramAuthData) => void;
  language?: string;
}

/** Telegram's own login widget (a script that draws the button in an iframe). */
export function TelegramLoginButton({ botName, onAuth, language }: TelegramLoginButtonProps) {
  const container = useRef<HTMLDivElement | null>(null);
  const callbackName = `gatehouseTelegramAuth${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const handler = useRef(onAuth);
  useEffect(() => {
    handler.current = onAuth;
  }, [onAuth]);

  useEffect(() => {
    const target = container.current;
    if (!target || !botName) {
      return undefined;
    }
    const globals = window as unknown as Record<string, unknown>;
    const script = document.createElement('script');
    script.src = TELEGRAM_WIDGET_URL;
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-request-access', 'write');
    if (language) {
      script.setAttribute('data-lang', language);
    }
    globals[callbackName] = (data: TelegramAuthData) => handler.current(data);
    script.setAttribute('data-onauth', `${callbackName}(user)`);
    target.appendChild(script);
    return () => {
      delete globals[callbackName];
      target.replaceChildren();
    };
  }, [botName, language, callbackName]);

  return (
    <Box ref={container} data-testid="telegram-login" sx={{ display: 'flex', justifyContent: 'center' }} />
  );
}

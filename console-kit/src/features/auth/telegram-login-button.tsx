import { useEffect, useId, useRef } from 'react';
import { Box } from '@mui/material';
import type { TelegramAuthData } from './auth-api';

export const TELEGRAM_WIDGET_URL = 'https://telegram.org/js/telegram-widget.js?22';

export interface TelegramLoginButtonProps {
  botName: string;
  /** Sign-in: the widget hands the fields to this function. */
  onAuth?: (data: TelegramAuthData) => void;
  /** Binding: the widget sends the browser to this address with the fields in the query. */
  authUrl?: string;
  language?: string;
}

/** Telegram's own login widget (a script that draws the button in an iframe). */
export function TelegramLoginButton({ botName, onAuth, authUrl, language }: TelegramLoginButtonProps) {
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
    if (authUrl) {
      script.setAttribute('data-auth-url', authUrl);
    } else {
      globals[callbackName] = (data: TelegramAuthData) => handler.current?.(data);
      script.setAttribute('data-onauth', `${callbackName}(user)`);
    }
    target.appendChild(script);
    return () => {
      delete globals[callbackName];
      target.replaceChildren();
    };
  }, [botName, authUrl, language, callbackName]);

  return (
    <Box ref={container} data-testid="telegram-login" sx={{ display: 'flex', justifyContent: 'center' }} />
  );
}

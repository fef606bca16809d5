import { useEffect, useMemo, useState } from 'react';
import type * as SafeHtml from './safe-html';

type SafeHtmlModule = typeof SafeHtml;

let loading: Promise<SafeHtmlModule> | null = null;
let loaded: SafeHtmlModule | null = null;

/**
 * The sanitizer and markdown renderer (DOMPurify and marked, a quarter of the sign-in page's script
 * otherwise), fetched the first time a screen shows admin-written text.
 */
export function loadSafeHtml(): Promise<SafeHtmlModule> {
  loading ??= import('./safe-html').then((module) => (loaded = module));
  return loading;
}

/**
 * Admin-written HTML or markdown as the safe subset; '' until the sanitizer has loaded (nothing
 * unsanitized is ever shown) and for empty text.
 */
export function useSafeHtml(text: string, as: 'html' | 'markdown'): string {
  const [module, setModule] = useState<SafeHtmlModule | null>(loaded);
  useEffect(() => {
    if (module || !text) {
      return;
    }
    let live = true;
    void loadSafeHtml().then((m) => {
      if (live) {
        setModule(m);
      }
    });
    return () => {
      live = false;
    };
  }, [module, text]);
  return useMemo(() => {
    if (!text || !module) {
      return '';
    }
    return as === 'html' ? module.sanitizeHtml(text) : module.renderMarkdown(text);
  }, [as, module, text]);
}

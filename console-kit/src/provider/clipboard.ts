import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useManualCopy, useNotify } from './console-context';

/** Writes `text` to the clipboard: the async Clipboard API, else the legacy copy command. */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (insecure origin, no permission): try the legacy way.
  }
  if (typeof document === 'undefined') {
    return false;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Copies a text and says so; when the browser refuses, the spec's '无法复制到剪贴板，请手动复制' and a
 * dialog showing the text. Resolves to whether the clipboard took it.
 */
export function useCopyText() {
  const notify = useNotify();
  const showManualCopy = useManualCopy();
  const { t } = useTranslation('common');
  return useCallback(
    async (text: string, successMessage?: string): Promise<boolean> => {
      const copied = await writeClipboard(text);
      if (copied) {
        notify(successMessage ?? t('copy.copied'), 'success');
      } else {
        notify(t('copy.failed'), 'warning');
        showManualCopy(text);
      }
      return copied;
    },
    [notify, showManualCopy, t],
  );
}

import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeApiError } from '../../api/describe-api-error';
import { useFeatureTranslation } from '../../provider/console-i18n';
import { useNotify } from '../../provider/console-context';
import { useFetchTokenKeyMutation, useListTokensQuery } from '../../lib/tokens-api';
import { CHAT_NAMESPACE, chatLocales } from './chat-locales';

/** The chat-link token fetch (docs/decisions.md#chat-links). */
export const CHAT_TOKEN_FETCH_SIZE = 100;

/** Delay before going to /token when no token is enabled (docs/decisions.md#chat-links). */
export const NO_TOKEN_REDIRECT_MS = 1500;

export type ChatKeyState =
  { state: 'loading' } | { state: 'ready'; key: string } | { state: 'failed'; message: string };

/**
 * The full key (`sk-…`, docs/decisions.md#full-key-fetch) of the caller's first enabled token, from the first 100 tokens.
 * Without an enabled token: the spec's error, then /token after 1.5 s.
 */
export function useChatKey(enabled = true): ChatKeyState {
  const { t } = useFeatureTranslation(CHAT_NAMESPACE, chatLocales);
  const notify = useNotify();
  const navigate = useNavigate();
  const list = useListTokensQuery(
    { keyword: '', token: '', page: 1, pageSize: CHAT_TOKEN_FETCH_SIZE },
    { skip: !enabled, refetchOnMountOrArgChange: true },
  );
  const [fetchKey] = useFetchTokenKeyMutation();
  const [fetched, setFetched] = useState<ChatKeyState>({ state: 'loading' });
  const started = useRef(false);

  // What the list says decides before any key is fetched: a failed list, or no enabled token.
  const listFailure = list.isError ? describeApiError(list.error, t) : null;
  const enabledToken =
    list.data && !list.isFetching ? list.data.items.find((item) => item.status === 1) : undefined;
  const noToken = Boolean(list.data) && !list.isFetching && !list.isError && enabledToken === undefined;

  useEffect(() => {
    if (!enabled || started.current) return;
    if (listFailure !== null) {
      started.current = true;
      notify(listFailure, 'error');
      return;
    }
    if (noToken) {
      started.current = true;
      notify(t('noEnabledToken'), 'error');
      window.setTimeout(() => void navigate('/token'), NO_TOKEN_REDIRECT_MS);
      return;
    }
    if (!enabledToken) return;
    started.current = true;
    fetchKey(enabledToken.id)
      .unwrap()
      .then(({ key }) => setFetched({ state: 'ready', key }))
      .catch((failure: unknown) => {
        const message = describeApiError(failure, t);
        notify(message, 'error');
        setFetched({ state: 'failed', message });
      });
  }, [enabled, listFailure, noToken, enabledToken, fetchKey, navigate, notify, t]);

  if (listFailure !== null) return { state: 'failed', message: listFailure };
  if (noToken) return { state: 'failed', message: t('noEnabledToken') };
  return fetched;
}

import { useMemo } from 'react';
import { useGetStatusQuery } from '../api/gatehouse-api';
import type { SystemStatus } from '../api/api-types';
import { useConsoleStorage } from './console-context';
import { StorageKeys } from './console-storage';

/**
 * The public status: the server's answer once it came, the copy cached in localStorage before that
 * (spec: status cached locally), so names, links and switches paint on the first frame.
 */
export function useSystemStatus() {
  const storage = useConsoleStorage();
  const query = useGetStatusQuery();
  const cached = useMemo(() => storage.getJson<SystemStatus>(StorageKeys.status), [storage]);
  return {
    status: query.data ?? cached,
    /** True until the server answered (the cached copy may be showing meanwhile). */
    isFetching: query.isFetching,
    isLoading: query.isLoading,
    error: query.error,
    refetch: query.refetch,
  };
}

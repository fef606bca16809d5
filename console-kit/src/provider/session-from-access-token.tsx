import { useEffect } from 'react';
import { useGetSelfQuery } from '../api/gatehouse-api';
import { useSession } from './use-session';

/** With an access token the server knows the user; this fills in the session record from it. */
export function SessionFromAccessToken() {
  const { data } = useGetSelfQuery();
  const { signIn } = useSession();
  useEffect(() => {
    if (data) {
      const { id, username, display_name, role, status, group } = data;
      signIn({ id, username, display_name, role, status, group });
    }
  }, [data, signIn]);
  return null;
}

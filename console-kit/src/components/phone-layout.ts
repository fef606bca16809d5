import { useMediaQuery } from '@mui/material';

/** Screens this narrow (or narrower) show lists as cards, without sideways scrolling. */
export const PHONE_MEDIA_QUERY = '(max-width:600px)';

/** True on phones (≤ 600 px wide). */
export function usePhoneLayout(): boolean {
  return useMediaQuery(PHONE_MEDIA_QUERY, { noSsr: true });
}

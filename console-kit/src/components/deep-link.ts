import { useCallback } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/**
 * What a list page's deep link asks to open: `<base>/add` (a new item), `<base>/edit/:id` (that item),
 * else nothing. `close` returns to the list's own address when the page was opened through a link.
 */
export function useDeepLink(base: string): {
  adding: boolean;
  editId: number | null;
  close: () => void;
} {
  const { pathname } = useLocation();
  const { id } = useParams();
  const navigate = useNavigate();
  const path = pathname.replace(/\/+$/, '');
  const adding = path === `${base}/add`;
  const parsed = id !== undefined && /^\d+$/.test(id) && path.startsWith(`${base}/edit/`) ? Number(id) : null;
  const close = useCallback(() => {
    if (path !== base) {
      void navigate(base, { replace: true });
    }
  }, [path, base, navigate]);
  return { adding, editId: parsed, close };
}

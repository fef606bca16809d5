import { Button } from '@mui/material';
import { useApiAction } from '../api/use-api-action';
import { useResetUserTwoFactorMutation } from '../lib/security-api';
import { useSecurityTranslation } from './use-security-translation';

/** An admin removes a user's second factors (a lost phone); the server applies the role rules. */
export function ResetTwoFactorButton({ user }: { user: { id: number; username: string } }) {
  const { t } = useSecurityTranslation();
  const [reset] = useResetUserTwoFactorMutation();
  const action = useApiAction(t);
  const run = async () => {
    if (!window.confirm(t('reset2fa.confirm', { name: user.username }))) return;
    await action.run(() => reset(user.id).unwrap(), {
      success: t('reset2fa.done'),
      fallback: t('panel.failed'),
    });
  };
  return (
    <Button size="small" onClick={() => void run()} disabled={action.busy}>
      {t('reset2fa.button')}
    </Button>
  );
}

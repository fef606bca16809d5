import { Button } from '@mui/material';
import { describeApiError } from '../../api/describe-api-error';
import { useNotify } from '../../provider/console-context';
import { useResetUserTwoFactorMutation } from './security-api';
import { useSecurityTranslation } from './use-security-translation';

/** An admin removes a user's second factors (a lost phone); the server applies the role rules. */
export function ResetTwoFactorButton({ user }: { user: { id: number; username: string } }) {
  const { t } = useSecurityTranslation();
  const notify = useNotify();
  const [reset, { isLoading }] = useResetUserTwoFactorMutation();
  const run = async () => {
    if (!window.confirm(t('reset2fa.confirm', { name: user.username }))) return;
    try {
      await reset(user.id).unwrap();
      notify(t('reset2fa.done'), 'success');
    } catch (failure) {
      notify(describeApiError(failure, t, t('panel.failed')), 'error');
    }
  };
  return (
    <Button size="small" onClick={() => void run()} disabled={isLoading}>
      {t('reset2fa.button')}
    </Button>
  );
}

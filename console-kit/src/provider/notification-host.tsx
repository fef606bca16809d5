import { Alert, Snackbar, type AlertColor } from '@mui/material';

export interface ConsoleNotification {
  id: number;
  message: string;
  severity: AlertColor;
}

export function NotificationHost({
  notification,
  onClose,
}: {
  notification: ConsoleNotification | null;
  onClose: (id: number) => void;
}) {
  return (
    <Snackbar
      key={notification?.id}
      open={notification !== null}
      autoHideDuration={3000}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway' && notification) {
          onClose(notification.id);
        }
      }}
    >
      {notification ? (
        <Alert severity={notification.severity} variant="filled" onClose={() => onClose(notification.id)}>
          {notification.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}

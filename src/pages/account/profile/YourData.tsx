import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLogout } from '@refinedev/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi, messageKeyOf } from '../../../../providers/index.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { useLocale } from '../../../components/LocaleScope.js';

/** `GET /users/me/export` saved as a file (issue 17; GDPR article 20: the user takes their data with them). */
export function DownloadMyData() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const data = await accountApi.exportData();
      const file = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file);
      link.download = `shapelab-data-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(link.href);
    } catch (failure) {
      setError(messageKeyOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box>
      <Typography sx={{ mb: 2 }}>{t('pages.profile.data.exportText')}</Typography>
      <ErrorAlert messageKey={error} />
      <Button variant="outlined" disabled={busy} onClick={() => void download()}>
        {t('pages.profile.data.export')}
      </Button>
    </Box>
  );
}

/**
 * The danger section (issue 17; GDPR article 17): deleting the account after typing a confirmation word
 * and, for an account with a password, the password. What happens to money and data is said before.
 */
export function DeleteMyAccount({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { mutateAsync: logout } = useLogout<{ redirectTo: string }>();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const word = t('pages.profile.data.confirmWord');
  const ready = typed.trim().toUpperCase() === word.toUpperCase() && (!hasPassword || password.length > 0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(null);
    try {
      await accountApi.deleteAccount(hasPassword ? password : null);
      await logout({ redirectTo: localize('/login?deleted=1') });
    } catch (failure) {
      setError(messageKeyOf(failure));
      setBusy(false);
    }
  }

  const close = () => {
    setOpen(false);
    setTyped('');
    setPassword('');
    setError(null);
  };

  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t('pages.profile.data.deleteWarning')}
      </Alert>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
        {t('pages.profile.data.delete')}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="delete-account-title" fullWidth maxWidth="sm">
        <Box component="form" noValidate onSubmit={(event: FormEvent) => void submit(event)}>
          <DialogTitle id="delete-account-title">{t('pages.profile.data.deleteTitle')}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{t('pages.profile.data.deleteText')}</DialogContentText>
            <ErrorAlert messageKey={error} />
            <TextField
              fullWidth
              margin="dense"
              label={t('pages.profile.data.typeToConfirm', { word })}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
            />
            {hasPassword ? (
              <TextField
                fullWidth
                margin="dense"
                type="password"
                label={t('pages.profile.data.password')}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                autoComplete="current-password"
              />
            ) : (
              <DialogContentText>{t('pages.profile.data.recentSignIn')}</DialogContentText>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('pages.profile.data.keep')}</Button>
            <Button type="submit" color="error" variant="contained" disabled={!ready || busy}>
              {t('pages.profile.data.deleteForever')}
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </Box>
  );
}

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
import { zodResolver } from '@hookform/resolvers/zod';
import { useCustomMutation, useLogout } from '@refinedev/core';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { deleteAccountFormSchema, type DeleteAccountFormValues } from '../../../../contract/forms.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { useOnDemandRead } from '../../../data/useApiAction.js';
import { paths } from '../../../routing/paths.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';
import { useReadOnly } from '../../../data/readOnlyView.js';

/** `GET /users/me/export` saved as a file (issue 17; GDPR article 20: the user takes their data with them). */
export function DownloadMyData() {
  const { t } = useTranslation();
  const read = useOnDemandRead();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    const data = await read<Record<string, unknown>>('/users/me/export');
    setBusy(false);
    if (!data) return;
    const file = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(file);
    link.download = `shapelab-data-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(link.href);
  }

  return (
    <Box>
      <Typography sx={{ mb: 2 }}>{t('pages.profile.data.exportText')}</Typography>
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
  const word = t('pages.profile.data.confirmWord');
  // The typed word and, for an account with one, the password: the button waits for both.
  const resolver = useMemo(() => zodResolver(deleteAccountFormSchema(word, hasPassword)), [hasPassword, word]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { isValid, isSubmitting, errors },
  } = useForm<DeleteAccountFormValues>({ resolver, mode: 'onChange', defaultValues: { typed: '', password: '' } });
  const { mutateAsync: deleteAccount } = useCustomMutation<Record<string, never>, DataError>();
  const readOnly = useReadOnly();

  const submit = handleSubmit(async ({ password }) => {
    try {
      await deleteAccount({ url: '/users/me', method: 'delete', values: hasPassword ? { password } : {}, errorNotification: false });
      await logout({ redirectTo: localize(paths.loginAfterDeletion) });
    } catch (failure) {
      // The server's refusal (a wrong password, a sign-in too long ago) under the field it concerns.
      setError(hasPassword ? 'password' : 'typed', serverError(messageKeyOf(failure)));
    }
  });

  const close = () => {
    setOpen(false);
    reset();
  };
  // The rules' own errors hold the button back; what shows is the server's refusal, under the password or instead of the hint.
  const refusal = errors.password?.type === 'server' ? fieldErrorText(t, errors, 'password') : errors.typed?.type === 'server' ? fieldErrorText(t, errors, 'typed') : undefined;

  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t('pages.profile.data.deleteWarning')}
      </Alert>
      <Button variant="outlined" color="error" disabled={readOnly} onClick={() => setOpen(true)}>
        {t('pages.profile.data.delete')}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="delete-account-title" fullWidth maxWidth="sm">
        <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
          <DialogTitle id="delete-account-title">{t('pages.profile.data.deleteTitle')}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{t('pages.profile.data.deleteText')}</DialogContentText>
            <TextField fullWidth margin="dense" label={t('pages.profile.data.typeToConfirm', { word })} {...register('typed')} autoComplete="off" />
            {hasPassword ? (
              <TextField
                fullWidth
                margin="dense"
                type="password"
                label={t('pages.profile.data.password')}
                {...register('password')}
                autoComplete="current-password"
                error={Boolean(errors.password)}
                helperText={refusal}
              />
            ) : (
              <DialogContentText color={refusal ? 'error' : undefined} role={refusal ? 'alert' : undefined}>
                {refusal ?? t('pages.profile.data.recentSignIn')}
              </DialogContentText>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{t('pages.profile.data.keep')}</Button>
            <Button type="submit" color="error" variant="contained" disabled={!isValid || isSubmitting}>
              {t('pages.profile.data.deleteForever')}
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </Box>
  );
}

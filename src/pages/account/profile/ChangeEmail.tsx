import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useNotification } from '@refinedev/core';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailChangeResponse } from '../../../../contract/account.js';
import { isValidEmail } from '../../../../contract/email.js';
import type { Me } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { CODE_LENGTH, CodeInput } from '../../../components/form/CodeInput.js';
import { errorKeyOf } from '../../../data/useApiAction.js';

/** Refusals shown under the field they concern; any other is shown above the form. */
const PASSWORD_ERRORS = new Set(['WRONG_PASSWORD']);
const EMAIL_ERRORS = new Set(['EMAIL_UNCHANGED', 'VALIDATION_FAILED']);

/**
 * Issue 20 item 7: "Change email" beside the sign-in email. The new address and the current password
 * (none for an account that signs in only with Google or Facebook) send a code to the new address; the
 * code makes it the sign-in email. The user stays signed in; the answer carries the changed user.
 */
/**
 * The change-email dialog (issue 20): the new address and the current password, then the code sent there.
 * Loaded only when the profile's "Change email" button opens it (src/pages/account/profile/DetailsForm.tsx).
 */
export default function ChangeEmailDialog({
  email,
  hasPassword,
  onChanged,
  onClose,
}: {
  email: string;
  hasPassword: boolean;
  onChanged: (user: Me) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const { open: notify } = useNotification();
  const { mutateAsync: ask, mutation: asking } = useCustomMutation<EmailChangeResponse, DataError>();
  const { mutateAsync: confirm, mutation: confirming } = useCustomMutation<Me, DataError>();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; code?: string; form?: string }>({});

  const close = onClose;

  const request = async (event: FormEvent) => {
    event.preventDefault();
    // The dialog sits inside the profile's React tree: its submit must not reach the details form.
    event.stopPropagation();
    const next = newEmail.trim();
    const problems = {
      email: isValidEmail(next) ? undefined : t('validation.invalidEmail'),
      password: hasPassword && !password ? t('validation.passwordRequired') : undefined,
    };
    setErrors(problems);
    if (problems.email || problems.password) return;
    try {
      const answer = await ask({ url: '/users/me/email', method: 'post', values: hasPassword ? { email: next, password } : { email: next }, errorNotification: false });
      setSentTo(answer.data.email);
      setPassword('');
    } catch (error) {
      const key = errorKeyOf(error);
      const text = t(`errors.${key}`, { defaultValue: t('errors.DEFAULT') });
      setErrors(PASSWORD_ERRORS.has(key) ? { password: text } : EMAIL_ERRORS.has(key) ? { email: text } : { form: text });
    }
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code)) {
      setErrors({ code: t('validation.codeIncomplete', { count: CODE_LENGTH }) });
      return;
    }
    try {
      const answer = await confirm({ url: '/users/me/email/confirm', method: 'post', values: { code }, errorNotification: false });
      notify?.({ type: 'success', message: t('pages.profile.changeEmail.changed', { email: answer.data.email }) });
      onChanged(answer.data);
      close();
    } catch (error) {
      const key = errorKeyOf(error);
      setCode('');
      setErrors({ code: t(`errors.${key}`, { defaultValue: t('errors.DEFAULT') }) });
    }
  };

  return (
    <Dialog open onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>{t('pages.profile.changeEmail.title')}</DialogTitle>
        {sentTo === null ? (
          <Box component="form" noValidate onSubmit={(event) => void request(event)}>
            <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
              <Typography>{t('pages.profile.changeEmail.intro', { email })}</Typography>
              {errors.form && <Alert severity="error">{errors.form}</Alert>}
              <TextField
                id="change-email-new"
                type="email"
                label={t('pages.profile.changeEmail.newEmail')}
                autoComplete="email"
                required
                autoFocus
                value={newEmail}
                onChange={(event) => setNewEmail(event.target.value)}
                error={Boolean(errors.email)}
                helperText={errors.email}
              />
              {hasPassword ? (
                <TextField
                  id="change-email-password"
                  type="password"
                  label={t('pages.profile.currentPassword')}
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  error={Boolean(errors.password)}
                  helperText={errors.password}
                />
              ) : (
                <Typography color="text.secondary">{t('pages.profile.changeEmail.noPassword')}</Typography>
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>{t('pages.profile.cancel')}</Button>
              <Button type="submit" variant="contained" disabled={asking.isPending}>
                {t('pages.profile.changeEmail.send')}
              </Button>
            </DialogActions>
          </Box>
        ) : (
          <Box component="form" noValidate onSubmit={(event) => void submitCode(event)}>
            <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
              <Alert severity="info" role="status">
                {t('pages.profile.changeEmail.sent', { email: sentTo })}
              </Alert>
              <CodeInput value={code} onChange={setCode} error={errors.code} onPasteError={(message) => setErrors({ code: message })} autoFocus />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setSentTo(null)}>{t('pages.profile.changeEmail.back')}</Button>
              <Button type="submit" variant="contained" disabled={confirming.isPending}>
                {t('pages.profile.changeEmail.confirm')}
              </Button>
            </DialogActions>
          </Box>
        )}
    </Dialog>
  );
}

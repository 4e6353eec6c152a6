import { zodResolver } from '@hookform/resolvers/zod';
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
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { EmailChangeResponse } from '../../../../contract/account.js';
import { emailChangeFormSchema, mailCodeFormSchema, type EmailChangeFormValues, type MailCodeFormValues } from '../../../../contract/forms.js';
import type { Me } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { CODE_LENGTH, CodeInput } from '../../../components/form/CodeInput.js';
import { fieldErrorText, serverError } from '../../../components/form/fieldErrorText.js';

/** Refusals shown under the field they concern; any other is shown above the form. */
const FIELD_OF_ERROR: Record<string, keyof EmailChangeFormValues> = { WRONG_PASSWORD: 'password', EMAIL_UNCHANGED: 'email', VALIDATION_FAILED: 'email' };
const codeResolver = zodResolver(mailCodeFormSchema);

/**
 * Issue 20 item 7: "Change email" beside the sign-in email. The new address and the current password (none
 * for an account that signs in only with Google or Facebook) send a code to the new address; the code makes it
 * the sign-in email. The user stays signed in; the answer carries the changed user. Two forms on the
 * contract's rules (contract/forms.ts), one after the other; loaded only when the profile's "Change email"
 * button opens the dialog (./DetailsForm.tsx).
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
  // The address the code went to; the address typed stays for "Back" (the password does not).
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [typed, setTyped] = useState('');

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('pages.profile.changeEmail.title')}</DialogTitle>
      {sentTo === null ? (
        <NewAddressForm
          email={email}
          hasPassword={hasPassword}
          typed={typed}
          onSent={(answer, given) => {
            setTyped(given);
            setSentTo(answer.email);
          }}
          onCancel={onClose}
        />
      ) : (
        <CodeForm
          sentTo={sentTo}
          onChanged={(user) => {
            onChanged(user);
            onClose();
          }}
          onBack={() => setSentTo(null)}
        />
      )}
    </Dialog>
  );
}

/** The dialog sits inside the profile's React tree: its submit must not reach the details form. */
function submitted(submit: (event: FormEvent) => Promise<void>) {
  return (event: FormEvent) => {
    event.stopPropagation();
    void submit(event);
  };
}

function NewAddressForm({
  email,
  hasPassword,
  typed,
  onSent,
  onCancel,
}: {
  email: string;
  hasPassword: boolean;
  typed: string;
  onSent: (answer: EmailChangeResponse, typed: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { mutateAsync: ask } = useCustomMutation<EmailChangeResponse, DataError>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const resolver = useMemo(() => zodResolver(emailChangeFormSchema(hasPassword)), [hasPassword]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EmailChangeFormValues>({ resolver, defaultValues: { email: typed, password: '' } });

  const send = handleSubmit(async (values) => {
    setRefusal(null);
    try {
      const answer = await ask({
        url: '/users/me/email',
        method: 'post',
        values: hasPassword ? { email: values.email, password: values.password } : { email: values.email },
        errorNotification: false,
      });
      onSent(answer.data, values.email);
    } catch (error) {
      const key = messageKeyOf(error);
      const field = FIELD_OF_ERROR[key];
      if (field) setError(field, serverError(key), { shouldFocus: true });
      else setRefusal(key);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={submitted(send)}>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
        <Typography>{t('pages.profile.changeEmail.intro', { email })}</Typography>
        <ErrorAlert messageKey={refusal} />
        <TextField
          {...register('email')}
          id="change-email-new"
          type="email"
          label={t('pages.profile.changeEmail.newEmail')}
          autoComplete="email"
          required
          autoFocus
          error={Boolean(errors.email)}
          helperText={fieldErrorText(t, errors, 'email')}
        />
        {hasPassword ? (
          <TextField
            {...register('password')}
            id="change-email-password"
            type="password"
            label={t('pages.profile.currentPassword')}
            autoComplete="current-password"
            required
            error={Boolean(errors.password)}
            helperText={fieldErrorText(t, errors, 'password')}
          />
        ) : (
          <Typography color="text.secondary">{t('pages.profile.changeEmail.noPassword')}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('pages.profile.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          {t('pages.profile.changeEmail.send')}
        </Button>
      </DialogActions>
    </Box>
  );
}

function CodeForm({ sentTo, onChanged, onBack }: { sentTo: string; onChanged: (user: Me) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const { open: notify } = useNotification();
  const { mutateAsync: confirm } = useCustomMutation<Me, DataError>();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<MailCodeFormValues>({ resolver: codeResolver, defaultValues: { code: '' } });
  const { field: code } = useController({ control, name: 'code' });

  const submit = handleSubmit(async (values) => {
    try {
      const answer = await confirm({ url: '/users/me/email/confirm', method: 'post', values, errorNotification: false });
      notify?.({ type: 'success', message: t('pages.profile.changeEmail.changed', { email: answer.data.email }) });
      onChanged(answer.data);
    } catch (error) {
      // A wrong or expired code is typed again from the start.
      resetField('code');
      setError('code', serverError(messageKeyOf(error)));
    }
  });
  // CodeInput names a paste it cannot take in the page's language itself.
  const problem = errors.code?.type === 'paste' ? errors.code.message : fieldErrorText(t, errors, 'code', { count: CODE_LENGTH });

  return (
    <Box component="form" noValidate onSubmit={submitted(submit)}>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
        <Alert severity="info" role="status">
          {t('pages.profile.changeEmail.sent', { email: sentTo })}
        </Alert>
        <CodeInput
          value={code.value}
          onChange={code.onChange}
          error={problem}
          onPasteError={(message) => (message ? setError('code', { type: 'paste', message }) : clearErrors('code'))}
          autoFocus
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onBack}>{t('pages.profile.changeEmail.back')}</Button>
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          {t('pages.profile.changeEmail.confirm')}
        </Button>
      </DialogActions>
    </Box>
  );
}

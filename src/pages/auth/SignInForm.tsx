import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLogin } from '@refinedev/core';
import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isValidEmail } from '../../../contract/email.js';
import type { LoginParams } from '../../../providers/authProvider.js';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';
import { safeReturnPath } from '../../routing/guard.js';

interface SignInValues {
  email: string;
  password: string;
  rememberMe: boolean;
}

/**
 * The sign-in form shared by /login and /admin/login: email and password with the validation texts of
 * spec section 5, remember me for users, and the server's error translated by its messageKey.
 */
export function SignInForm(props: { admin: boolean; title: string; submitLabel: string; footer?: ReactNode }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [showPassword, setShowPassword] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const { mutate: login, isPending } = useLogin<LoginParams>();
  const { control, handleSubmit } = useForm<SignInValues>({
    defaultValues: { email: '', password: '', rememberMe: false },
  });
  useDocumentTitle(props.title);

  const onSubmit = handleSubmit((values) => {
    setErrorKey(null);
    login(
      { ...values, admin: props.admin },
      {
        onSuccess: (result) => {
          if (!result.success) {
            setErrorKey(result.error?.message ?? 'DEFAULT');
            return;
          }
          const fallback = props.admin ? '/admin/users' : '/';
          navigate(localize(safeReturnPath(searchParams.get('to'), fallback)), { replace: true });
        },
      },
    );
  });

  return (
    <Paper component="section" sx={{ p: { xs: 3, sm: 4 } }} aria-labelledby="sign-in-title">
      <Typography id="sign-in-title" variant="h4" component="h1" gutterBottom>
        {props.title}
      </Typography>
      {errorKey && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {t(`errors.${errorKey}`, { defaultValue: t('errors.DEFAULT') })}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2 }}>
        <Controller
          name="email"
          control={control}
          rules={{
            validate: (value) => {
              if (value.trim() === '') return t('validation.emailRequired');
              return isValidEmail(value.trim()) || t('validation.invalidEmail');
            },
          }}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              id="email"
              type="email"
              label={t('pages.login.email')}
              autoComplete="username"
              required
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message}
            />
          )}
        />
        <Controller
          name="password"
          control={control}
          rules={{ validate: (value) => value !== '' || t('validation.passwordRequired') }}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              id="password"
              type={showPassword ? 'text' : 'password'}
              label={t('pages.login.password')}
              autoComplete="current-password"
              required
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message}
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        onClick={() => setShowPassword((shown) => !shown)}
                        aria-label={t(showPassword ? 'pages.login.hidePassword' : 'pages.login.showPassword')}
                        edge="end"
                      >
                        {showPassword ? <VisibilityOff /> : <Visibility />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
          )}
        />
        {!props.admin && (
          <Controller
            name="rememberMe"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={t('pages.login.rememberMe')}
              />
            )}
          />
        )}
        <Button type="submit" variant="contained" size="large" disabled={isPending}>
          {props.submitLabel}
        </Button>
      </Box>
      {props.footer}
    </Paper>
  );
}

import FacebookIcon from '@mui/icons-material/Facebook';
import GoogleIcon from '@mui/icons-material/Google';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from './ErrorAlert.js';
import { useLocale } from './LocaleScope.js';
import { goToProvider, type SocialProvider } from './social.js';

/** 'Continue with Google' and 'Continue with Facebook' on the sign-in and registration pages. */
export function SocialButtons() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const [pending, setPending] = useState<SocialProvider | null>(null);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const start = async (provider: SocialProvider) => {
    setErrorKey(null);
    setPending(provider);
    const failure = await goToProvider(localize, provider, 'redirect');
    if (failure) {
      setErrorKey(failure);
      setPending(null);
    }
  };
  return (
    <Box sx={{ mt: 3 }}>
      {/* A text divider drawn with Box (MUI's Divider would add 1.4 KB to the sign-in pages' budget). */}
      <Box
        role="separator"
        sx={{
          mb: 2,
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          color: 'text.secondary',
          '&::before, &::after': { content: '""', flex: 1, borderTop: 1, borderColor: 'divider' },
        }}
      >
        {t('pages.social.or')}
      </Box>
      <ErrorAlert messageKey={errorKey} />
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        <Button variant="outlined" size="large" startIcon={<GoogleIcon />} disabled={pending !== null} onClick={() => void start('google')}>
          {t('pages.social.continueWithGoogle')}
        </Button>
        <Button variant="outlined" size="large" startIcon={<FacebookIcon />} disabled={pending !== null} onClick={() => void start('facebook')}>
          {t('pages.social.continueWithFacebook')}
        </Button>
      </Box>
    </Box>
  );
}

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { messageKeyOf } from '../../../providers/index.js';
import { accountApi } from '../../../providers/index.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';

/** `/users/validate/{token}`: the link from the verification mail (spec section 2). */
export default function VerifyEmail() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { token = '' } = useParams();
  const [outcome, setOutcome] = useState<'pending' | 'verified' | string>('pending');

  useEffect(() => {
    let cancelled = false;
    accountApi.verifyEmailLink(token).then(
      () => !cancelled && setOutcome('verified'),
      (error: unknown) => !cancelled && setOutcome(messageKeyOf(error)),
    );
    return () => {
      cancelled = true;
    };
  }, [token]);

  if (outcome === 'pending') return <FullPageSpinner />;
  if (outcome === 'verified') return <Navigate to={localize('/registration/success')} replace />;
  const signIn = outcome === 'ALREADY_VERIFIED';
  return (
    <PageCard title={t('pages.verifyEmail.title')}>
      {outcome === 'ALREADY_VERIFIED' && (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          {t('errors.ALREADY_VERIFIED')}
        </Alert>
      )}
      {!signIn && <ErrorAlert messageKey={outcome} />}
      <Button component={RouterLink} to={localize(signIn ? '/login' : '/users/confirm')} variant="contained">
        {signIn ? t('pages.login.submit') : t('pages.verifyEmail.enterCode')}
      </Button>
    </PageCard>
  );
}

import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The steps of signing up: details, coupon and agreements, then the emailed code on /users/confirm. */
export const REGISTRATION_STEPS = 3;

/** 'Step x/y' of the registration (spec section 2), with the step's name. */
export function StepLabel({ step, name }: { step: number; name: string }) {
  const { t } = useTranslation();
  return (
    <Typography variant="overline" component="p" color="text.secondary" data-testid="registration-step">
      {t('pages.registration.step', { step, total: REGISTRATION_STEPS })} · {name}
    </Typography>
  );
}

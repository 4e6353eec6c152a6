import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useGetIdentity } from '@refinedev/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useLocale } from '../../../components/LocaleScope.js';
import type { Me } from '../../../../contract/users.js';
import { landingOf } from '../../../routing/menu.js';
import './texts.js';

/**
 * Why a staff member was sent here (issue 44, STAFF_TWO_FACTOR=required): nothing else opens until a second
 * factor is set up. Once one is, the notice says so and leads on to where staff land after signing in (issue
 * 47: the first admin screen their role may see).
 */
export function EnrolmentNotice({ required }: { required: boolean }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const { data: user } = useGetIdentity<Me>();
  // Whether the page was reached to enrol: it stays so after the enrolment, which lifts `required`.
  const [enrolling] = useState(required);
  if (required) {
    return (
      <Alert severity="warning" role="status" sx={{ mb: 3 }} data-testid="enrolment-required">
        <AlertTitle>{t('security:enrolment.title')}</AlertTitle>
        {t('security:enrolment.text')}
      </Alert>
    );
  }
  if (!enrolling) return null;
  return (
    <Alert
      severity="success"
      role="status"
      sx={{ mb: 3 }}
      data-testid="enrolment-done"
      action={
        <Button component={RouterLink} to={localize(landingOf(user?.permissions))} color="inherit" variant="outlined" size="small">
          {t('security:enrolment.continue')}
        </Button>
      }
    >
      {t('security:enrolment.done')}
    </Alert>
  );
}

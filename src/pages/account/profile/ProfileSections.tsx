import Typography from '@mui/material/Typography';
import { useGetIdentity } from '@refinedev/core';
import { lazy, useCallback, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../../../contract/users.js';
import { FullPageSpinner } from '../../../components/FullPageSpinner.js';
import { Staggered } from '../../../components/Staggered.js';
import { useRememberUser } from '../../../data/useCurrentUser.js';
import { DetailsForm } from './DetailsForm.js';
import { NewsletterSwitch } from './NewsletterSwitch.js';
import { Section } from './Section.js';

/** The sections below the details form load after it, so the form is ready first (issue 18: Lighthouse). */
const PasswordForm = lazy(() => import('./PasswordForm.js').then((module) => ({ default: module.PasswordForm })));
const ConnectedAccounts = lazy(() => import('./ConnectedAccounts.js').then((module) => ({ default: module.ConnectedAccounts })));
const CouponForm = lazy(() => import('./CouponForm.js').then((module) => ({ default: module.CouponForm })));
const DownloadShapelab = lazy(() => import('../../../components/DownloadShapelab.js').then((module) => ({ default: module.DownloadShapelab })));
const DownloadMyData = lazy(() => import('./YourData.js').then((module) => ({ default: module.DownloadMyData })));
const DeleteMyAccount = lazy(() => import('./YourData.js').then((module) => ({ default: module.DeleteMyAccount })));

/**
 * The profile's sections. The user is the session's (Refine's identity); an answer carrying the changed
 * user replaces it, with no extra read. `download: false` leaves out the download, for a page that offers it already.
 */
export function ProfileSections({ download = true }: { download?: boolean }) {
  const { t } = useTranslation();
  const remember = useRememberUser();
  const [user, setUser] = useState<Me | null>(null);
  const { data: identity } = useGetIdentity<Me>();
  // The sections follow the details form's fields, which come in parts (./DetailsForm.tsx).
  const [formShown, setFormShown] = useState(false);
  const onFormShown = useCallback(() => setFormShown(true), []);
  // The identity arrives as a store update, which React renders in one piece; the deferred copy lets the
  // forms it brings render in a transition instead, in slices (Lighthouse's total blocking time).
  const current = useDeferredValue(identity);
  const shown = user ?? current;

  // One callback for the page's life, so the details form's memoized email part keeps it (./DetailsForm.tsx).
  const onSaved = useCallback(
    (updated: Me) => {
      setUser(updated);
      void remember(updated);
    },
    [remember],
  );
  // A password set for the first time: the account has one from now on.
  const onPasswordSet = () => shown && onSaved({ ...shown, hasPassword: true });

  return (
    <>
      {shown ? (
        <>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('pages.profile.details')}
          </Typography>
          <DetailsForm initial={current ?? undefined} onSaved={onSaved} onShown={onFormShown} />
          {/* The sections below the form, each in a commit of its own once the form has shown. */}
          {formShown && (
            <Staggered>
              <Section key="newsletter" title={t('pages.profile.newsletter')}>
                <NewsletterSwitch user={shown} onSaved={onSaved} />
              </Section>
              <Section key="password" title={t('pages.profile.password')}>
                <PasswordForm email={shown.email} hasPassword={shown.hasPassword} onSet={onPasswordSet} />
              </Section>
              <Section key="connected" title={t('pages.profile.connectedAccounts')}>
                <ConnectedAccounts user={shown} onSaved={onSaved} />
              </Section>
              <Section key="coupon" title={t('pages.profile.coupon')}>
                <CouponForm />
              </Section>
              {download && (
                <Section key="download" title={t('download.title')}>
                  <DownloadShapelab />
                </Section>
              )}
              <Section key="data" title={t('pages.profile.data.title')}>
                <DownloadMyData />
              </Section>
              <Section key="danger" title={t('pages.profile.data.dangerTitle')}>
                <DeleteMyAccount hasPassword={shown.hasPassword} />
              </Section>
            </Staggered>
          )}
        </>
      ) : (
        <FullPageSpinner />
      )}
    </>
  );
}

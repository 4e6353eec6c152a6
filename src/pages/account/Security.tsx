import { useGetIdentity, useInvalidate, useOne } from '@refinedev/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TwoFactorStatus } from '../../../contract/two-factor.js';
import type { Me } from '../../../contract/users.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../providers/errors.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { PageCard } from '../../components/PageCard.js';
import { useReloadUser } from '../../data/useCurrentUser.js';
import type { PageProps } from '../index.js';
import { Section } from './profile/Section.js';
import { EnrolmentNotice } from './security/EnrolmentNotice.js';
import { PasskeysSection } from './security/Passkeys.js';
import { proofFor } from './security/proof.js';
import { SessionsSection } from './security/Sessions.js';
import { SupportViews } from './security/SupportViews.js';
import './security/texts.js';
import { TwoStepSection } from './security/TwoStep.js';

/**
 * `/account/security`: two-step sign-in with an authenticator app and recovery codes, the passkeys (issue 44),
 * and where the user is signed in (issue 17), each a section of its own (./security/). Staff who must set up a
 * second factor are sent here first and told why (src/routing/guard.ts); their sessions show once they have.
 * After a change to the second factor, its state and the session's user are read again: the user says whether
 * one is set up, and the route guard and the menus follow it.
 */
export default function SecurityPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { data: me } = useGetIdentity<Me>();
  const { result: status, query } = useOne<TwoFactorStatus, DataError>({ resource: 'two-factor', id: 'me', errorNotification: false });
  const invalidate = useInvalidate();
  const reloadUser = useReloadUser();
  const onChanged = useCallback(async () => {
    await Promise.all([invalidate({ resource: 'two-factor', invalidates: ['all'] }), reloadUser().catch(() => null)]);
  }, [invalidate, reloadUser]);
  const proof = proofFor({ hasPassword: me?.hasPassword ?? true, totp: status?.totp ?? false });

  return (
    <PageCard title={t(titleKey)} testId="security">
      {me && <EnrolmentNotice required={me.twoFactorEnrolmentRequired} />}
      <Section title={t('security:twoStep.title')}>
        {query.isError ? (
          <ErrorAlert messageKey={messageKeyOf(query.error)} />
        ) : status && me ? (
          <TwoStepSection status={status} email={me.email} proof={proof} onChanged={onChanged} />
        ) : (
          <FullPageSpinner minHeight={120} />
        )}
      </Section>
      <Section title={t('security:passkeys.title')}>
        <PasskeysSection proof={proof} onChanged={onChanged} />
      </Section>
      {/* The server lists sessions to staff only once a second factor is set up (403 TWO_FACTOR_ENROLMENT_REQUIRED),
          and that refusal sends the tab to this page: asked for here meanwhile, it remounted the page, setup and
          all, again and again. */}
      {me && !me.twoFactorEnrolmentRequired && (
        <>
          <Section title={t('security:sessions.title')}>
            <SessionsSection />
          </Section>
          <Section title={t('pages.security.views.title')}>
            <SupportViews />
          </Section>
        </>
      )}
    </PageCard>
  );
}

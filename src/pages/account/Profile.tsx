import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard.js';
import { ProfileSections } from './profile/ProfileSections.js';

/**
 * `/account/profile` (spec section 2): personal details, newsletter, password, connected accounts, coupon,
 * the download and the user's data, each a section of its own (./profile/). The account home (issue 20)
 * shows the same sections below its overview.
 */
export default function Profile() {
  const { t } = useTranslation();
  return (
    <PageCard title={t('pages.profile.title')}>
      <ProfileSections />
    </PageCard>
  );
}

import { useTranslation } from 'react-i18next';
import { BillingAddressForm } from '../../billing/BillingAddressForm.js';
import { PageCard } from '../../components/PageCard.js';

/**
 * `/account/billing-info` (spec section 2): the billing email, address, company and VAT number, validated.
 * The email is the one invoices go to, kept on the provider's customer; the sign-in email is the profile's.
 */
export default function BillingInfoPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PageCard title={t(titleKey)} testId="billing-info">
      <BillingAddressForm withEmail />
    </PageCard>
  );
}

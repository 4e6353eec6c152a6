import { useTranslation } from 'react-i18next';
import { SignInForm } from './SignInForm.js';

export default function AdminLogin() {
  const { t } = useTranslation();
  return <SignInForm admin title={t('pages.adminLogin.title')} submitLabel={t('pages.adminLogin.submit')} />;
}

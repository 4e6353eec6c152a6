import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> | Shapelab" so each screen is announced and bookmarked by name. */
export function useDocumentTitle(title: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} | ${t('app.title')}`;
  }, [title, t]);
}

import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { splitLocale } from '../../routing/locale.js';
import type { PageProps } from '../index.js';

type DocumentModule = { default: string };
/** Each document in each language is a chunk of its own, already HTML (scripts/markdown-plugin.ts). */
const documents = import.meta.glob<DocumentModule>('../../../locales/*/{terms,privacy-policy}.md');

/** `/terms` and `/privacy-policy`: the document in the reader's language, kept beside the translations. */
export default function LegalDocument({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const location = useLocation();
  const name = splitLocale(location.pathname).path.includes('privacy-policy') ? 'privacy-policy' : 'terms';
  const [html, setHtml] = useState<{ key: string; html: string } | null>(null);
  const key = `${language}/${name}`;

  useEffect(() => {
    let cancelled = false;
    const load = documents[`../../../locales/${key}.md`];
    void load?.().then((module) => !cancelled && setHtml({ key, html: module.default }));
    return () => {
      cancelled = true;
    };
  }, [key]);

  // Links to a section (the registration's EULA link is /terms#eula) work once the text is there.
  useEffect(() => {
    if (html && location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [html, location.hash]);

  return (
    <PageCard title={t(titleKey)}>
      {html?.key === key ? (
        <Box
          className="legal-document"
          sx={{ '& h2': { typography: 'h6', mt: 3, mb: 1 }, '& p, & li': { typography: 'body1' }, '& a': { color: 'primary.main' } }}
          dangerouslySetInnerHTML={{ __html: html.html }}
        />
      ) : (
        <FullPageSpinner />
      )}
    </PageCard>
  );
}

import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';

/** The id of every layout's main area, the skip link's target. */
export const MAIN_CONTENT_ID = 'main';

/** The first focusable element of every page: jumps past the navigation to the main content (WCAG 2.4.1). */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      sx={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: 2000,
        p: 1,
        bgcolor: 'background.paper',
        '&:focus': { top: 8 },
      }}
    >
      {t('app.skipToContent')}
    </Link>
  );
}

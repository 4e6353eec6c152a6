import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useLocale } from '../../../components/LocaleScope.js';

/** One card of the account home: a heading, what it says, and a link to the page that manages it. */
export function OverviewCard({ id, title, link, children }: { id: string; title: string; link?: { to: string; label: string }; children: ReactNode }) {
  const { localize } = useLocale();
  return (
    <Paper component="section" variant="outlined" aria-labelledby={`home-${id}-title`} data-testid={`home-${id}`} sx={{ p: 2, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <Typography id={`home-${id}-title`} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <Box sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>{children}</Box>
      {link && (
        <Link component={RouterLink} to={localize(link.to)} sx={{ mt: 1, alignSelf: 'flex-start' }}>
          {link.label}
        </Link>
      )}
    </Paper>
  );
}

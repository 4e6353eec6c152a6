import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useDocumentTitle } from './useDocumentTitle.js';

/** The card of a page: its heading (also the tab title) and its content; `wide` for tables of many columns. */
export function PageCard({ title, children, testId, wide = false }: { title: string; children: ReactNode; testId?: string; wide?: boolean }) {
  useDocumentTitle(title);
  return (
    <Paper component="section" sx={{ p: { xs: 3, sm: 4 }, maxWidth: wide ? 'none' : 720 }} aria-labelledby="page-title" data-testid={testId}>
      {/* A long German word (Nutzungsbedingungen) breaks rather than widen a phone's page. */}
      <Typography id="page-title" variant="h4" component="h1" gutterBottom sx={{ overflowWrap: 'anywhere', hyphens: 'auto' }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useDocumentTitle } from './useDocumentTitle.js';

/** The card of a public page: its heading (also the tab title) and its content. */
export function PageCard({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Paper component="section" sx={{ p: { xs: 3, sm: 4 } }} aria-labelledby="page-title">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

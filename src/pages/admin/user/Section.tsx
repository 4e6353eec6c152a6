import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** One part of the user page: a titled card (h2), with its actions beside the title. */
export function Section({ title, actions, children, testId }: { title: string; actions?: ReactNode; children: ReactNode; testId?: string }) {
  const titleId = useId();
  return (
    <Paper component="section" variant="outlined" aria-labelledby={titleId} data-testid={testId} sx={{ p: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography id={titleId} variant="h6" component="h2">
          {title}
        </Typography>
        {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>{actions}</Box>}
      </Box>
      {children}
    </Paper>
  );
}

/** Label and value pairs (a definition list) that wrap on a phone: long emails and ids break. */
export function Facts({ items, label }: { items: [string, ReactNode][]; label?: string }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(8rem, auto) 1fr' }, columnGap: 2, rowGap: { xs: 0, sm: 0.5 }, m: 0 }}
    >
      {items.map(([name, value]) => (
        <Box key={name} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {name}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** A record of a list shown as a small card (payments, devices, sessions): readable on a phone without a table. */
export function Item({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box component="li" data-testid={testId} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, listStyle: 'none', minWidth: 0 }}>
      {children}
    </Box>
  );
}

export function Items({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Box component="ul" aria-label={label} sx={{ display: 'grid', gap: 1, p: 0, m: 0 }}>
      {children}
    </Box>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}

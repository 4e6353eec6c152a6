import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { saveFile, toCsv, type CsvCell } from '../../../components/csv.js';

/** The height of a chart, of a table's scrolling box, and of the skeleton before either. */
export const CHART_HEIGHT = 300;

export interface CsvFile {
  name: string;
  header: string[];
  rows: CsvCell[][];
}

interface FigureCardProps {
  title: string;
  testId: string;
  /** The figures as a CSV file, made when the button is pressed; null while there are none. */
  csv: (() => CsvFile) | null;
  /** No figures yet: a skeleton of the chart's size. */
  loading: boolean;
  /** The figures shown are for earlier filters while new ones load. */
  stale: boolean;
  /** Controls beside the download button (the chart/table switch). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled box of figures (a chart or a table) with its CSV download. */
export function FigureCard({ title, testId, csv, loading, stale, actions, children }: FigureCardProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const download = () => {
    if (!csv) return;
    const file = csv();
    saveFile(toCsv(file.header, file.rows), file.name, 'text/csv;charset=utf-8');
  };
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, minWidth: 0 }} data-testid={testId}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2" sx={{ flex: 1, minWidth: 160 }}>
          {title}
        </Typography>
        {actions}
        <Button size="small" variant="outlined" onClick={download} disabled={!csv} aria-label={t('pages.analytics.downloadCsvOf', { title })}>
          {t('pages.analytics.downloadCsv')}
        </Button>
      </Box>
      {loading ? (
        <Skeleton variant="rectangular" height={CHART_HEIGHT} aria-hidden />
      ) : (
        <Box aria-busy={stale} sx={{ opacity: stale ? 0.5 : 1, transition: 'opacity 150ms' }}>
          {children}
        </Box>
      )}
    </Paper>
  );
}

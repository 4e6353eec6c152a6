import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useDrawingArea, useXScale } from '@mui/x-charts/hooks';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Granularity } from '../../../../contract/analytics.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { periodLabel } from './format.js';

/** The hatching's colour: MUI grey 600, 3:1 against white and visible over the palette's bars and lines. */
const HATCH = '#757575';

/**
 * Issue 21 item 3: the periods not over yet (the current week...) shaded and hatched inside the chart,
 * from the first incomplete period to the right edge, with a dashed line where it starts; a child of
 * MUI X's BarChart or LineChart, drawn over the bars and lines without taking the pointer from the tooltip.
 */
export function IncompletePeriodShade({ period, label }: { period: string; label: string }) {
  const scale = useXScale<'band' | 'point'>();
  const { left, top, width, height } = useDrawingArea();
  const patternId = `incomplete-${useId().replace(/:/g, '')}`;
  const position = scale(period);
  if (position === undefined) return null;
  // A band's bars start at `position`; a point sits in the middle of its step.
  const step = scale.step();
  const start = 'bandwidth' in scale ? position - (step - scale.bandwidth()) / 2 : position - step / 2;
  const x = Math.max(left, start);
  const end = left + width;
  if (end - x <= 0) return null;
  return (
    <g data-testid="incomplete-period" role="img" aria-label={label} pointerEvents="none">
      <title>{label}</title>
      <defs>
        <pattern id={patternId} width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="8" height="8" fill={HATCH} fillOpacity="0.08" />
          <line x1="0" y1="0" x2="0" y2="8" stroke={HATCH} strokeWidth="2" strokeOpacity="0.35" />
        </pattern>
      </defs>
      <rect x={x} y={top} width={end - x} height={height} fill={`url(#${patternId})`} />
      <line x1={x} x2={x} y1={top} y2={top + height} stroke={HATCH} strokeWidth="1.5" strokeDasharray="4 3" />
    </g>
  );
}

/** The incomplete period's text: the label of the shade, the legend under the chart, the table's note. */
export function useIncompleteLabel(): (period: string, granularity: Granularity) => string {
  const { t } = useTranslation();
  const { language } = useLocale();
  return (period, granularity) => t(`pages.analytics.incomplete.since.${granularity}`, { period: periodLabel(period, granularity, language) });
}

/** The legend under a chart: the hatched swatch and what it means. */
export function IncompletePeriodLegend({ period, granularity }: { period: string; granularity: Granularity }) {
  const { t } = useTranslation();
  const label = useIncompleteLabel();
  return (
    <Typography variant="body2" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }} data-testid="incomplete-legend">
      <Box
        component="span"
        aria-hidden
        sx={{
          flex: 'none',
          width: 20,
          height: 14,
          border: `1.5px dashed ${HATCH}`,
          background: `repeating-linear-gradient(45deg, rgba(117,117,117,0.35) 0 2px, rgba(117,117,117,0.08) 2px 6px)`,
        }}
      />
      <span>
        <strong>{t('pages.analytics.incomplete.legend')}</strong>: {label(period, granularity)}
      </span>
    </Typography>
  );
}

import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface ResponsiveColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Digits and codes (an address, an amount): set in a monospace font or aligned right. */
  mono?: boolean;
  align?: 'left' | 'right';
  /** Kept on one line in the table (a date, an amount): the table is a list of cards before it would wrap. */
  nowrap?: boolean;
  /** Whether a row's card shows this value (an empty refund or tax is left off a card; a table keeps its column). */
  onCard?: (row: Row) => boolean;
}

export interface ResponsiveTableProps<Row> {
  /** The table's accessible name (and its scrolling region's). */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Most important first: the first column names the row (a card's title on a phone). */
  columns: readonly ResponsiveColumn<Row>[];
  /** The row's actions: the table's last column, pinned at its right edge; a card's last line. */
  actions?: (row: Row) => ReactNode;
  actionsHeader?: string;
  rowTestId?: (row: Row) => string | undefined;
  /** More data attributes of a row (`{ 'job-id': id }` is `data-job-id`), on its table row or card alike. */
  rowData?: (row: Row) => Record<string, string>;
  /** Below this width of its box the rows are cards, whatever the table would need. */
  minTableWidth?: number;
  size?: 'small' | 'medium';
}

/**
 * The one pattern for every table of the portal (issue 48 item 2): the columns that matter first, and the
 * row's actions always within reach without scrolling sideways. The table is laid out while its box is wide
 * enough for it; once the table would be wider than its box (a narrow card at 1280 px, a phone, German's
 * longer words), each row is a card instead: its first column as the title, the others as label and value
 * stacked, its actions on the card's last line. The width the table needed is remembered, so the table comes
 * back once the box is that wide again. In the table the actions column sticks to the right edge, so even
 * while the box is being measured nothing the user can do is out of view.
 */
export function ResponsiveTable<Row>({
  label,
  rows,
  rowKey,
  columns,
  actions,
  actionsHeader,
  rowTestId,
  rowData,
  minTableWidth = 560,
  size = 'small',
}: ResponsiveTableProps<Row>) {
  const box = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  // The width the table needed the last time it did not fit: cards until the box is as wide again.
  const [needed, setNeeded] = useState(0);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const cards = width !== null && width < Math.max(minTableWidth, needed);
  useLayoutEffect(() => {
    const laidOut = table.current;
    if (cards || width === null || !laidOut) return;
    if (laidOut.scrollWidth > width + 1) setNeeded(laidOut.scrollWidth);
  }, [cards, width, rows, columns]);

  return (
    <Box ref={box} sx={{ width: '100%' }}>
      {cards ? (
        <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {rows.map((row) => {
            const [first, ...rest] = columns;
            return (
              <Paper component="li" variant="outlined" key={rowKey(row)} data-testid={rowTestId?.(row)} {...dataAttributes(rowData?.(row))} sx={{ p: 2, minWidth: 0 }}>
                {first && (
                  <Typography component="div" sx={{ fontWeight: 600, mb: rest.length > 0 ? 1 : 0, overflowWrap: 'anywhere' }}>
                    {first.cell(row)}
                  </Typography>
                )}
                {rest.length > 0 && (
                  <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 150px), 1fr))' }}>
                    {rest.filter((column) => column.onCard?.(row) ?? true).map((column) => (
                      <Box key={column.key} sx={{ minWidth: 0 }}>
                        <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                          {column.header}
                        </Typography>
                        <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', fontFamily: column.mono ? 'monospace' : undefined }}>
                          {column.cell(row)}
                        </Typography>
                      </Box>
                    ))}
                  </Box>
                )}
                {actions && (
                  <Box data-row-actions sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.5, '&:empty': { display: 'none' } }}>
                    {actions(row)}
                  </Box>
                )}
              </Paper>
            );
          })}
        </Box>
      ) : (
        // While it is measured (or if a cell grows later) the table scrolls in its own box, reachable by keyboard (WCAG 2.1.1).
        <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
          {/* Cells a little closer than MUI's 16 px: a table keeps its place at 1280 px in German too. */}
          <Table ref={table} size={size} aria-label={label} sx={{ '& .MuiTableCell-root': { px: 1 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column.key} align={column.align}>
                    {column.header}
                  </TableCell>
                ))}
                {actions && <TableCell sx={stickyEnd}>{actionsHeader}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={rowKey(row)} data-testid={rowTestId?.(row)} {...dataAttributes(rowData?.(row))}>
                  {columns.map((column) => (
                    <TableCell
                      key={column.key}
                      align={column.align}
                      sx={{ fontFamily: column.mono ? 'monospace' : undefined, whiteSpace: column.nowrap ? 'nowrap' : undefined }}
                    >
                      {column.cell(row)}
                    </TableCell>
                  ))}
                  {actions && (
                    <TableCell sx={stickyEnd}>
                      <Box data-row-actions sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
                        {actions(row)}
                      </Box>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}

/** The actions column: at the table's right edge however far the other columns scroll. */
const stickyEnd = { position: 'sticky', right: 0, bgcolor: 'background.paper', whiteSpace: 'nowrap', textAlign: 'right' } as const;

function dataAttributes(data: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(data ?? {}).map(([name, value]) => [`data-${name}`, value]));
}

import { stringify } from 'csv-stringify/browser/esm/sync';

/** One CSV cell: text or a number; null is an empty cell (a figure that does not exist yet). */
export type CsvCell = string | number | null;

/**
 * RFC 4180 CSV through csv-stringify (the library the server's Lite key export uses): a header row,
 * then one line per row, lines ending in CRLF. A cell holding a comma, a quote, a line break or
 * surrounding spaces is quoted; numbers are written as JavaScript writes them (a dot for decimals), so
 * spreadsheets in every locale read them the same.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return stringify([header, ...rows] as CsvCell[][], {
    record_delimiter: 'windows',
    // A lone line break must be quoted too (the library quotes only the CRLF it writes).
    quoted_match: /[\r\n]|^\s|\s$/,
    cast: { number: (value) => (Number.isFinite(value) ? String(value) : '') },
  });
}

/** Hands `text` to the browser as a file download. */
export function saveFile(text: string, name: string, type: string): void {
  const href = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  anchor.click();
  // After the click has handed the file over; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

/** One CSV cell: text or a number; null is an empty cell (a figure that does not exist yet). */
export type CsvCell = string | number | null;

/**
 * RFC 4180 CSV: a header row, then one line per row, lines ending in CRLF. A cell holding a comma,
 * a quote, a line break or surrounding spaces is quoted, with its quotes doubled; numbers are written
 * as JavaScript writes them (a dot for decimals), so spreadsheets in every locale read them the same.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(cell: CsvCell): string {
  if (cell === null) return '';
  const text = typeof cell === 'number' ? (Number.isFinite(cell) ? String(cell) : '') : cell;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
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

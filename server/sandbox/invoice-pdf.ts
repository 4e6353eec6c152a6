/**
 * A one-page PDF invoice for the stand-in's transactions: plain PDF 1.4 with the standard Helvetica
 * font, so any viewer opens it. Paddle's real invoices come from Paddle; this only has to be a valid,
 * readable document with the number, date, lines and totals.
 */
export function invoicePdf(invoice: { number: string; date: string; customerEmail: string; lines: { name: string; amount: string }[]; tax: string; total: string }): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
  const rows: [number, number, string][] = [
    [18, 760, `Invoice ${invoice.number}`],
    [11, 736, `Date: ${invoice.date}`],
    [11, 720, `Billed to: ${invoice.customerEmail}`],
    [11, 704, 'Seller: Paddle (offline stand-in), merchant of record for Shapelab'],
    ...invoice.lines.map((line, index): [number, number, string] => [11, 670 - index * 16, `${line.name}    ${line.amount}`]),
  ];
  const bottom = 670 - invoice.lines.length * 16 - 10;
  rows.push([11, bottom, `Tax: ${invoice.tax}`], [13, bottom - 20, `Total: ${invoice.total}`]);
  const content = rows.map(([size, y, text]) => `BT /F1 ${size} Tf 56 ${y} Td (${escape(text)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

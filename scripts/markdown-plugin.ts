import { readFileSync } from 'node:fs';
import { Marked, type Tokens } from 'marked';
import type { Plugin } from 'vite';

const EXPLICIT_ID = /\s*\{#([a-z0-9-]+)\}\s*$/;

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Headings get an id to link to: `## Licence {#eula}` takes `eula`, any other its text's slug.
 * The documents are the portal's own files, so their HTML is trusted; no HTML is allowed in them anyway.
 */
const markdown = new Marked<string, string>({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }: Tokens.Heading) {
      const explicit = EXPLICIT_ID.exec(text);
      const id = explicit?.[1] ?? slug(text);
      const inner = this.parser.parseInline(tokens).replace(EXPLICIT_ID, '');
      return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
    },
    html() {
      throw new Error('HTML is not allowed in the legal documents; write Markdown');
    },
  },
});

/** The Markdown of a legal document as HTML, for tests and tools. */
export function renderMarkdown(source: string): string {
  return markdown.parse(source, { async: false });
}

/**
 * `import html from './terms.md'`: the document becomes its HTML at build time, so a reader downloads
 * neither a Markdown parser nor the Markdown, only the text in their language.
 */
export function markdownDocuments(): Plugin {
  return {
    name: 'shapelab-markdown',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('.md')) return null;
      return `export default ${JSON.stringify(renderMarkdown(readFileSync(id, 'utf8')))};`;
    },
  };
}

/** Markdown documents are imported as their HTML (scripts/markdown-plugin.ts). */
declare module '*.md' {
  const html: string;
  export default html;
}

// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The browser builds no schema of the server's (zod's full build, `from 'zod'`): contract/ modules that
 * define the API's schemas also hold plain values the pages need (column names, statuses, retention days),
 * and a page that imported one of those values evaluated every schema of the module and of the modules it
 * imports on the way (on `/admin/users`, 174 ms of a 384 ms task on Lighthouse's phone, bench/README.md).
 * Those values live in zod-free `contract/*-values.ts` modules; the forms' schemas use zod's mini build.
 * Type-only imports are erased by the compiler and do not count.
 */
const root = path.resolve(import.meta.dirname, '../..');

/** The modules a file loads when it runs: its imports, re-exports and dynamic imports that are not type-only. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) found.push(specifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier ('./users.js') as the TypeScript file it names. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  const bare = target.replace(/\.js$/, '');
  return [`${bare}.ts`, `${bare}.tsx`, target, path.join(target, 'index.ts')].find((candidate) => existsSync(candidate) && candidate.match(/\.tsx?$/));
}

/** The source files under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every module the web app's code can load, each with the chain of imports that reaches it from src/ or providers/. */
function browserModules(): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const queue = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'providers'))].map((file) => ({ file, chain: [path.relative(root, file)] }));
  for (const { file, chain } of queue) reached.set(file, chain);
  while (queue.length > 0) {
    const { file, chain } = queue.shift() as { file: string; chain: string[] };
    for (const specifier of runtimeImports(file)) {
      if (!specifier.startsWith('.')) {
        reached.set(`package:${specifier}`, reached.get(`package:${specifier}`) ?? [...chain, specifier]);
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (!target || reached.has(target)) continue;
      const next = [...chain, path.relative(root, target)];
      reached.set(target, next);
      queue.push({ file: target, chain: next });
    }
  }
  return reached;
}

describe('what the browser loads (issue 18)', () => {
  it("no module of the web app loads zod's full build, on any path through contract/", () => {
    const reached = browserModules();
    expect(reached.size).toBeGreaterThan(100);
    // The reading works: the forms' schemas are reached, and they load zod's mini build.
    expect([...reached.keys()].some((key) => key.endsWith(path.join('contract', 'forms.ts')))).toBe(true);
    expect(reached.has('package:zod/mini')).toBe(true);
    expect(reached.get('package:zod')?.join(' -> ')).toBeUndefined();
  });
});

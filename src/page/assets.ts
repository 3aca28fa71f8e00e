import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files inlined into every self-contained page. The packages' `exports` maps block deep imports,
 * so files are located from the resolved entry point (see shared/research/dependencies.md).
 * Read once per process and cached: a report has one page, a sweep may write several.
 */

function packageDir(pkg: string, marker: string): string {
  // Walk up from the resolved entry to the directory holding `marker` (the package's dist/build dir).
  let dir = dirname(fileURLToPath(import.meta.resolve(pkg)));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, marker))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`cannot locate ${marker} of ${pkg}`);
}

const cache = new Map<string, string>();
function cached(key: string, load: () => string): string {
  let v = cache.get(key);
  if (v === undefined) {
    v = load();
    cache.set(key, v);
  }
  return v;
}

/** vega.min.js (the full build: vega-core would need d3 separately). */
export function vegaRuntime(): string {
  return cached('vega', () => readFileSync(join(packageDir('vega', 'build/vega.min.js'), 'build/vega.min.js'), 'utf8'));
}

/** vega-embed.min.js; with specs pre-compiled to Vega (`mode: 'vega'`) it needs no vega-lite in the page. */
export function vegaEmbedRuntime(): string {
  return cached('vega-embed', () => readFileSync(join(packageDir('vega-embed', 'build/vega-embed.min.js'), 'build/vega-embed.min.js'), 'utf8'));
}

/**
 * KaTeX's stylesheet with its fonts as data URIs. Only the woff2 files are kept (every browser that
 * runs vega reads woff2): about 300 KiB instead of 1.2 MiB for all three formats.
 */
export function katexCss(): string {
  return cached('katex-css', () => {
    const dir = join(packageDir('katex', 'dist/katex.min.css'), 'dist');
    const css = readFileSync(join(dir, 'katex.min.css'), 'utf8');
    return css.replace(/src:url\(fonts\/([^)]+?\.woff2)\) format\("woff2"\)(,url\([^)]*\) format\("[a-z]+"\))*/g, (_m, file: string) => {
      const b64 = readFileSync(join(dir, 'fonts', file)).toString('base64');
      return `src:url(data:font/woff2;base64,${b64}) format("woff2")`;
    });
  });
}

/** The version in package.json, shown in reports next to the command that reproduces them. */
export function cclabVersion(): string {
  return cached('version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  });
}

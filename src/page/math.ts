import katex from 'katex';

/**
 * Render LaTeX to HTML+MathML on the server (no script in the page). `throwOnError: false` shows a
 * bad formula in red instead of losing the report; the error text is returned so callers can log it.
 */
export function renderLatex(latex: string, display = true): { html: string; error?: string } {
  const key = `${display ? 'display' : 'inline'}\0${latex}`;
  let r = rendered.get(key);
  if (!r) {
    r = renderUncached(latex, display);
    rendered.set(key, r);
  }
  return { ...r };
}

/**
 * What this process has rendered, by mode and formula: KaTeX is a pure function of them, and a report
 * renders its model equations while its runs go on (report/build.ts prebuildCharts), then again in the page.
 */
const rendered = new Map<string, { html: string; error?: string }>();

function renderUncached(latex: string, display: boolean): { html: string; error?: string } {
  try {
    return { html: katex.renderToString(latex, { displayMode: display, throwOnError: true, output: 'htmlAndMathml', strict: 'ignore' }) };
  } catch (err) {
    const html = katex.renderToString(latex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
    return { html, error: err instanceof Error ? err.message : String(err) };
  }
}

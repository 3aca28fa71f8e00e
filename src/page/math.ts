import katex from 'katex';

/**
 * Render LaTeX to HTML+MathML on the server (no script in the page). `throwOnError: false` shows a
 * bad formula in red instead of losing the report; the error text is returned so callers can log it.
 */
export function renderLatex(latex: string, display = true): { html: string; error?: string } {
  try {
    return { html: katex.renderToString(latex, { displayMode: display, throwOnError: true, output: 'htmlAndMathml', strict: 'ignore' }) };
  } catch (err) {
    const html = katex.renderToString(latex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
    return { html, error: err instanceof Error ? err.message : String(err) };
  }
}

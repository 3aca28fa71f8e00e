import type { Spec as VegaSpec } from 'vega';
import { katexCss, vegaEmbedRuntime, vegaRuntime } from './assets.js';

/**
 * The self-contained page: sections of trusted HTML, charts embedded as compiled Vega specs with
 * the vega runtime inlined (interactive), each with a server-rendered SVG shown until the live chart
 * draws (so the page still reads with scripts off). Reusable: the sweep report builds its own
 * sections and calls `renderPage`.
 */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface PageChart {
  /** DOM id, unique in the page; also the `.vl.json` file stem. */
  id: string;
  title: string;
  /** One or two sentences on what the chart shows (plain text). */
  caption?: string;
  vega: VegaSpec;
  /** Static fallback. */
  svg: string;
  /** Relative link to the exported Vega-Lite spec, if written. */
  specHref?: string;
}

export interface Section {
  id: string;
  title: string;
  /** Trusted HTML (escape user text with escapeHtml). */
  html: string;
  children?: Section[];
}

export interface PageInput {
  title: string;
  /** Trusted HTML under the title. */
  intro?: string;
  sections: Section[];
  charts: PageChart[];
  /** Inline KaTeX's CSS (only when the page has formulas: it is about 360 KiB). */
  math?: boolean;
  footer?: string;
}

/** A chart's figure, to place in a section's HTML. */
export function chartFigure(c: PageChart): string {
  const cap = c.caption ? `<figcaption>${escapeHtml(c.caption)}${c.specHref ? ` <a class="spec" href="${escapeHtml(c.specHref)}">Vega-Lite spec</a>` : ''}</figcaption>` : '';
  return `<figure class="chart" id="${escapeHtml(c.id)}"><div class="chart-live"></div><div class="chart-static">${c.svg}</div>${cap}</figure>`;
}

/** JSON safe inside a <script> element. */
function scriptJson(x: unknown): string {
  return JSON.stringify(x).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A runtime file inside <script>: only `</script` could end the element early. */
function scriptText(js: string): string {
  return js.replace(/<\/script/gi, '<\\/script');
}

function toc(sections: Section[]): string {
  const items = sections.map((s) => `<li><a href="#${escapeHtml(s.id)}">${escapeHtml(s.title)}</a>${s.children?.length ? `<ul>${s.children.map((c) => `<li><a href="#${escapeHtml(c.id)}">${escapeHtml(c.title)}</a></li>`).join('')}</ul>` : ''}</li>`);
  return `<nav class="toc"><h2>Contents</h2><ol>${items.join('')}</ol></nav>`;
}

function sectionHtml(s: Section, level: number): string {
  const h = `h${Math.min(level, 6)}`;
  return `<section id="${escapeHtml(s.id)}"><${h}>${escapeHtml(s.title)}</${h}>${s.html}${(s.children ?? []).map((c) => sectionHtml(c, level + 1)).join('')}</section>`;
}

const CSS = `
:root{--fg:#1d232b;--muted:#5b6673;--line:#d9dee4;--bg:#fff;--accent:#2f6db3;--warn:#9a5b00;--bad:#a4262c}
*{box-sizing:border-box}
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1480px;margin:0 auto;padding:24px 20px 64px}
h1{font-size:1.9em;margin:.2em 0 .3em;line-height:1.2}
h2{font-size:1.4em;margin:2em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
h3{font-size:1.15em;margin:1.6em 0 .4em}
h4{font-size:1em;margin:1.2em 0 .3em}
p,li{max-width:75ch}
.muted{color:var(--muted)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f5f7f9;border:1px solid var(--line);border-radius:6px;padding:10px 12px;overflow-x:auto}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.8em}
th,td{padding:3px 5px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{background:#f5f7f9;font-weight:600}
th.group{text-align:center;border-left:2px solid var(--line)}
td.first,th.first{border-left:2px solid var(--line)}
td.label,th.label{text-align:left}
tbody tr:hover{background:#f9fbfd}
.table-wrap{overflow-x:auto}
main table{display:block;max-width:100%;overflow-x:auto}
table:not([class]) td{white-space:normal;min-width:6em}
.untrusted{color:var(--muted);font-style:italic}
.flag{display:inline-block;min-width:1.3em;padding:0 .3em;margin-left:.25em;border-radius:3px;font-size:.78em;font-style:normal;font-weight:600;text-align:center;cursor:help}
.flag.warn{background:#fdf0d8;color:var(--warn)}
.flag.invalid{background:#fbe3e4;color:var(--bad)}
.flag.info{background:#e6eef8;color:var(--accent)}
ul.flags{padding-left:1.2em}
ul.flags li{margin:.15em 0}
figure.chart{margin:1em 0 1.6em}
figure.chart .chart-live{min-height:0;overflow-x:auto}
figure.chart.live .chart-static{display:none}
figure.chart .chart-static svg{max-width:100%;height:auto}
figcaption{color:var(--muted);font-size:.9em;max-width:80ch;margin-top:.2em}
nav.toc{background:#f8fafc;border:1px solid var(--line);border-radius:8px;padding:6px 18px;margin:1em 0}
nav.toc h2{border:0;margin:.4em 0;font-size:1.05em}
nav.toc ol{margin:.2em 0 .6em;padding-left:1.3em}
nav.toc ul{padding-left:1.1em;margin:0;columns:3}
dl.params{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}
dl.params dt{text-align:right}
dl.params dd{margin:0}
.equation{overflow-x:auto;margin:.4em 0}
.equation.scaled{overflow-x:visible}
.equation .katex-display>.katex,.equation .katex-display>.katex>.katex-html{white-space:normal}
.equation{position:relative}
.ci{display:block;font-size:.82em;color:var(--muted);white-space:nowrap}
td.winner{font-weight:700}
.win{color:#a86b00;margin-left:.2em}
table caption{caption-side:top;text-align:left;color:var(--muted);font-size:.95em;padding:2px 0}
.summary{background:#f3f8f3;border:1px solid #cfe3cf;border-radius:8px;padding:4px 18px;margin:1em 0}
.summary h2{border:0;margin:.5em 0 .2em;font-size:1.15em}
p.line-note{max-width:95ch}
figure.chart form.vega-bindings{font-size:.9em}
.vega-bind{display:inline-block;margin-right:1.2em}
footer{margin-top:3em;color:var(--muted);font-size:.85em;border-top:1px solid var(--line);padding-top:.8em}
.vega-embed{width:100%}
`;

/** Draw each chart with vega-embed; mark the figure live (hiding its SVG) and count its marks for tests. */
const BOOT = `
(function(){
  var specs = JSON.parse(document.getElementById('cclab-specs').textContent);
  var views = window.cclabViews = {};
  function count(item){ var n = 0; if (!item) return 0; if (item.items) { for (var i = 0; i < item.items.length; i++) { var c = item.items[i]; if (c.marktype && c.marktype !== 'group' && c.items) n += c.items.length; n += count(c); } } return n; }
  Object.keys(specs).forEach(function(id){
    var fig = document.getElementById(id);
    vegaEmbed(fig.querySelector('.chart-live'), specs[id], {mode: 'vega', renderer: 'canvas', actions: {export: true, source: false, compiled: false, editor: false}})
      .then(function(res){ views[id] = res.view; fig.setAttribute('data-marks', String(count(res.view.scenegraph().root))); fig.classList.add('live'); })
      .catch(function(err){ fig.setAttribute('data-error', String(err)); console.error('cclab chart ' + id + ': ' + err); });
  });
})();
`;

/**
 * Equations wider than their box are scaled down to fit (KaTeX's display math never wraps), to no
 * less than 40% of the text size; below that they scroll, with a visible scroll bar. Rerun on resize.
 */
const FIT_EQUATIONS = `
(function(){
  function fit(){
    document.querySelectorAll('.equation').forEach(function(box){
      var k = box.querySelector('.katex');
      if (!k) return;
      k.style.fontSize = '';
      box.classList.remove('scaled');
      var need = box.scrollWidth, have = box.clientWidth;
      if (need > have + 1) {
        var px = parseFloat(getComputedStyle(k).fontSize);
        k.style.fontSize = px * Math.max(0.4, (have / need) * 0.97) + 'px';
        if (box.scrollWidth <= box.clientWidth + 1) box.classList.add('scaled');
      }
    });
  }
  fit();
  // KaTeX's fonts change the widths once loaded.
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
  window.addEventListener('load', fit);
  window.addEventListener('resize', fit);
})();
`;

/** The whole page as one string. Opens offline: no external URL is referenced. */
export function renderPage(p: PageInput): string {
  const specs: Record<string, unknown> = {};
  for (const c of p.charts) specs[c.id] = c.vega;
  const hasCharts = p.charts.length > 0;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cclab">
<title>${escapeHtml(p.title)}</title>
<style>${CSS}</style>
${p.math ? `<style>${katexCss()}</style>` : ''}
</head>
<body>
<main>
<h1>${escapeHtml(p.title)}</h1>
${p.intro ?? ''}
${toc(p.sections)}
${p.sections.map((s) => sectionHtml(s, 2)).join('\n')}
${p.footer ? `<footer>${p.footer}</footer>` : ''}
</main>
${p.math ? `<script>${FIT_EQUATIONS}</script>` : ''}
${hasCharts ? `<script>${scriptText(vegaRuntime())}</script>\n<script>${scriptText(vegaEmbedRuntime())}</script>\n<script type="application/json" id="cclab-specs">${scriptJson(specs)}</script>\n<script>${BOOT}</script>` : ''}
</body>
</html>
`;
}

'use strict';
// The report model (model.js) as one self-contained HTML file: no script, no external request;
// images are read and inlined as data: URIs, so the file can be mailed or attached on its own.
const fs = require('fs');
const path = require('path');

// The verdict label stays on one line (.v); its details under it wrap, or a long figure widened the table past the page.
const STYLE = `body{font-family:DejaVu Sans,Arial,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;width:100%}td,th{border:1px solid #bbb;padding:.35em .5em;vertical-align:top;text-align:left}
th{background:#eee}.v{font-weight:bold;white-space:nowrap}.holds{background:#dcebf7}.changed{background:#f7e3c8}
.obsolete,.gone,.unsupported{background:#e6e6e6}.no-effect{background:#f3ecd9}.question{background:#fff;color:#333}.not-measured,.not-reproduced,.inconclusive{background:#fff;color:#666}
.stronger,.weaker,.reversed,.fails{background:#f7e3c8}.gv{font-weight:bold}.gv small,.v small{font-weight:normal}
figure{margin:1em 0}img{max-width:100%;border:1px solid #ddd}
.v small{white-space:normal}td.r,th.r{text-align:right}pre{background:#f6f6f6;padding:.5em;overflow-x:auto}
blockquote{margin:1em 0;padding:.2em 1em;border-left:4px solid #bbb}blockquote.warning{border-color:#d08000;background:#fdf3e0}`;

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Text for an HTML element or a double-quoted attribute (the only quoting this file writes). */
function esc(s) {
  return String(s === undefined || s === null ? '' : s).replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

// Only these targets are written as links: a javascript: URL in a report's data must not become one.
const safeHref = (href) => (/^(https?:|mailto:|#|[^:]*$)/i.test(href) ? href : '#');

function inline(parts) {
  return parts
    .map((p) => {
      if (p.type === 'code') return `<code>${esc(p.text)}</code>`;
      if (p.type === 'bold') return `<b>${esc(p.text)}</b>`;
      if (p.type === 'link') return `<a href="${esc(safeHref(p.href))}">${esc(p.text)}</a>`;
      return esc(p.text);
    })
    .join('');
}

const small = (lines) => lines.map((l) => `<br><small>${esc(l)}</small>`).join('');

/** One table cell: a verdict carries its machine name as a class (the colours of the CSS above). */
function cellHtml(c, col, table) {
  const right = col.align === 'right' ? ' class="r"' : '';
  if (!c) return '<td></td>';
  if (c.type === 'verdict') {
    const cls = `${table.verdictWrap ? 'gv' : 'v'} ${c.verdict}`;
    return `<td class="${esc(cls)}">${esc(c.text)}${small([...c.details, ...(c.context ? [c.context] : [])])}</td>`;
  }
  if (c.type === 'link') return `<td${right}><a href="${esc(safeHref(c.href))}">${esc(c.text)}</a></td>`;
  if (c.type === 'number') return `<td class="r">${esc(c.text)}</td>`;
  const body = c.small ? `<small>${esc(c.text)}</small>` : esc(c.text);
  return `<td${right}>${body}${small(c.details || [])}</td>`;
}

function tableHtml(t) {
  const head = t.columns.map((c) => `<th${c.align === 'right' ? ' class="r"' : ''}>${esc(c.title)}</th>`).join('');
  const rows = t.rows.map((r) => `<tr>${t.columns.map((col, i) => cellHtml(r[i], col, t)).join('')}</tr>`);
  return `<table><tr>${head}</tr>${rows.join('')}</table>`;
}

const MIME = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
};

/** An image inlined from its file (a path relative to `baseDir`, as the Markdown beside it links it). */
function imageHtml(b, baseDir) {
  if (/^(https?:|data:)/i.test(b.path)) return `<figure><img alt="${esc(b.alt)}" src="${esc(b.path)}"></figure>`;
  const file = path.resolve(baseDir, b.path);
  const mime = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
  const data = fs.readFileSync(file).toString('base64');
  return `<figure><img alt="${esc(b.alt)}" src="data:${mime};base64,${data}"></figure>`;
}

function blockHtml(b, baseDir) {
  switch (b.type) {
    case 'heading': {
      const n = Math.min(6, Math.max(1, b.level));
      return `<h${n}${b.id ? ` id="${esc(b.id)}"` : ''}>${esc(b.text)}</h${n}>`;
    }
    case 'paragraph':
      return `<p>${inline(b.parts)}</p>`;
    case 'table':
      return tableHtml(b);
    case 'codeBlock':
      return `<pre><code>${esc(b.text)}</code></pre>`;
    case 'note':
      return `<blockquote class="${esc(b.kind)}"><p>${b.kind === 'warning' ? 'warning: ' : ''}${inline(b.parts)}</p></blockquote>`;
    case 'image':
      return imageHtml(b, baseDir);
    default:
      throw new Error(`render-html: unknown block type ${JSON.stringify(b.type)}`);
  }
}

/**
 * The document as a self-contained HTML page.
 * @param {object} doc a document of model.js
 * @param {object} [o] { baseDir: where the images' relative paths start (default: the current directory) }
 */
function renderHtml(doc, { baseDir = '.' } = {}) {
  const body = [`<h1>${esc(doc.title)}</h1>`, ...doc.blocks.map((b) => blockHtml(b, baseDir))];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.title)}</title><style>
${STYLE}
</style></head><body>
${body.join('\n')}
</body></html>
`;
}

module.exports = { renderHtml, esc };

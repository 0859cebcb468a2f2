'use strict';
// The one report model. A report is built once as plain data (JSON-serialisable: no functions, no
// classes) and handed to a renderer: render-markdown.js, render-html.js, render-terminal.js. Only the
// renderers know a format, so two renderings of one document cannot say different things.
//
// document  { type: 'document', title, blocks: [block] }
// blocks    heading { level, text, id? }         paragraph { parts: [inline] }
//           table { columns: [{ title, align }], rows: [[cell]], verdictWrap? }
//           codeBlock { text }                    note { kind: 'note'|'warning', parts: [inline] }
//           image { path, alt }
// inline    text { text }  code { text }  bold { text }  link { text, href }
// cells     text { text, details?, small? }  number { value, unit, text }  link { text, href }
//           verdict { verdict, text, details: [], context? }
// A link whose href is '#id' points at the heading of that id in the same document.

const str = (x) => (x === undefined || x === null ? '' : String(x));

const text = (t) => ({ type: 'text', text: str(t) });
const code = (t) => ({ type: 'code', text: str(t) });
const bold = (t) => ({ type: 'bold', text: str(t) });
const link = (t, href) => ({ type: 'link', text: str(t), href: str(href) });

/** An inline part: a string is plain text. */
function inline(part) {
  return typeof part === 'string' || typeof part === 'number' ? text(part) : part;
}

const doc = (title, blocks = []) => ({ type: 'document', title: str(title), blocks: blocks.filter(Boolean) });
const heading = (level, t, id) => ({ type: 'heading', level, text: str(t), ...(id ? { id: String(id) } : {}) });
const paragraph = (...parts) => ({ type: 'paragraph', parts: parts.flat().map(inline) });
const codeBlock = (t) => ({ type: 'codeBlock', text: str(t) });
const note = (parts, kind = 'note') => ({ type: 'note', kind, parts: [parts].flat().map(inline) });
const warning = (parts) => note(parts, 'warning');
const image = (path, alt) => ({ type: 'image', path: str(path), alt: str(alt) });

/**
 * A text cell. `details` qualify it (in parentheses on one line, on lines of their own in HTML);
 * `small` marks a cell of secondary prose (a reason, a setting) that HTML sets smaller.
 */
function textCell(t, { details = [], small = false } = {}) {
  const d = details.filter((x) => x !== undefined && x !== null && x !== '').map(String);
  return { type: 'text', text: str(t), ...(d.length ? { details: d } : {}), ...(small ? { small: true } : {}) };
}

/** A measured number: `text` is how it reads (the lab's own formatting), `value` the number itself. */
function number(value, unit = '', t) {
  const shown = t === undefined ? `${value}${unit ? ` ${unit}` : ''}` : str(t);
  return {
    type: 'number',
    value: typeof value === 'number' && Number.isFinite(value) ? value : null,
    unit,
    text: shown,
  };
}

/**
 * A verdict: its label, the details that back it (our figure, its interval) and the context it was
 * reached in (what this run had of the claim's setting). `verdict` is the machine name (a CSS class).
 */
function verdictCell(verdict, label, details = [], context = null) {
  const d = details.filter(Boolean).map(String);
  return {
    type: 'verdict',
    verdict: str(verdict),
    text: str(label),
    details: d,
    ...(context ? { context: String(context) } : {}),
  };
}

/** A cell from a shorthand: a string is text, a number a number cell, null or undefined empty. */
function cell(x) {
  if (x === undefined || x === null) return textCell('');
  if (typeof x === 'string') return textCell(x);
  if (typeof x === 'number') return number(x);
  return x;
}

/** A column from a shorthand: a string is a left-aligned title. */
function column(c) {
  if (typeof c === 'string') return { title: c, align: 'left' };
  return { title: str(c.title), align: c.align === 'right' ? 'right' : 'left' };
}

/** A table; `verdictWrap`: a wide table whose verdict cells may wrap (HTML keeps the others on one line). */
function table(columns, rows, { verdictWrap = false } = {}) {
  return {
    type: 'table',
    columns: columns.map(column),
    rows: rows.map((r) => r.map(cell)),
    ...(verdictWrap ? { verdictWrap: true } : {}),
  };
}

/** A cell as one line of plain text (Markdown and the terminal share this reading). */
function cellText(c) {
  if (!c) return '';
  if (c.type === 'verdict') {
    return `${c.text}${c.details.length ? ` (${c.details.join('; ')})` : ''}${c.context ? `; ${c.context}` : ''}`;
  }
  if (c.type === 'text' && c.details) return `${c.text} (${c.details.join('; ')})`;
  return c.text;
}

/** Inline parts as plain text (the terminal's reading: no markup, a link shows its target). */
function inlineText(parts) {
  const shown = (p) => p.type === 'link' && p.href && !p.href.startsWith('#') && p.href !== p.text;
  return parts.map((p) => (shown(p) ? `${p.text} (${p.href})` : p.text)).join('');
}

module.exports = {
  doc,
  heading,
  paragraph,
  table,
  codeBlock,
  note,
  warning,
  image,
  text,
  code,
  bold,
  link,
  textCell,
  number,
  verdictCell,
  cell,
  column,
  cellText,
  inlineText,
};

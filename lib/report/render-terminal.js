'use strict';
// The report model (model.js) as plain text for a terminal of `width` columns (100 by default):
// every line fits, a table too wide for it wraps its cells inside their columns. cli-table3 would
// cut a word longer than its column with '…'; a figure must never be cut, so this breaks it instead.
// Bold (ANSI) only when asked, i.e. when the caller's stream is a terminal.
const { cellText, inlineText } = require('./model');

const GAP = 2; // spaces between two columns
const BOLD = (s) => `\u001b[1m${s}\u001b[22m`;

/** Words broken to lines of at most `width` characters; a word longer than that is split. */
function wrapText(text, width) {
  const w = Math.max(1, width);
  const out = [];
  for (const para of String(text).split('\n')) {
    let line = '';
    for (let word of para.split(' ').filter((x, i, all) => x || all.length === 1)) {
      while (word.length > w) {
        if (line) out.push(line);
        out.push(word.slice(0, w));
        word = word.slice(w);
        line = '';
      }
      const next = line ? `${line} ${word}` : word;
      if (next.length > w && line) {
        out.push(line);
        line = word;
      } else line = next;
    }
    out.push(line);
  }
  return out;
}

/**
 * Column widths that fit `width`: each column's longest cell, then the widest column narrowed
 * one character at a time (long prose gives way before short figures) down to a floor.
 */
function fitWidths(natural, width) {
  const widths = [...natural];
  const room = width - GAP * (widths.length - 1);
  const floor = Math.max(4, Math.floor(room / Math.max(1, widths.length) / 2));
  const total = () => widths.reduce((a, b) => a + b, 0);
  while (total() > room) {
    const i = widths.indexOf(Math.max(...widths));
    if (widths[i] <= floor) break;
    widths[i] -= 1;
  }
  // Still too wide (many columns): every column shares what is left, one character at least.
  if (total() > room) widths.fill(Math.max(1, Math.floor(room / widths.length)));
  return widths;
}

const pad = (s, w, right) => (right ? s.padStart(w) : s.padEnd(w));

function tableLines(t, width, color) {
  const texts = t.rows.map((r) => t.columns.map((_, i) => cellText(r[i])));
  // reduce, not Math.max(...rows): a table of 150,000 rows (a large result file) overflows the stack as arguments
  const natural = t.columns.map((c, i) =>
    texts.reduce((m, r) => Math.max(m, r[i].length), Math.max(c.title.length, 1)),
  );
  const widths = fitWidths(natural, width);
  const rowLines = (cells, right) => {
    const wrapped = cells.map((c, i) => wrapText(c, widths[i]));
    const height = Math.max(...wrapped.map((w) => w.length));
    const lines = [];
    for (let k = 0; k < height; k++) {
      lines.push(
        wrapped
          .map((w, i) => pad(w[k] || '', widths[i], right(i)))
          .join(' '.repeat(GAP))
          .trimEnd(),
      );
    }
    return lines;
  };
  const isRight = (i) => t.columns[i].align === 'right';
  const head = rowLines(
    t.columns.map((c) => c.title),
    isRight,
  ).map((l) => (color ? BOLD(l) : l));
  const rule = widths.map((w) => '-'.repeat(w)).join(' '.repeat(GAP));
  const body = texts.map((r) => rowLines(r, isRight));
  // Once a row takes several lines, a blank line between rows shows where each ends.
  const spaced = body.some((lines) => lines.length > 1);
  return [...head, rule, ...body.flatMap((lines, i) => (spaced && i ? ['', ...lines] : lines))];
}

function blockLines(b, width, color) {
  switch (b.type) {
    case 'heading': {
      const lines = wrapText(b.text, width);
      if (b.level > 2) return color ? lines.map(BOLD) : lines;
      const under = (b.level === 1 ? '=' : '-').repeat(Math.min(width, Math.max(...lines.map((l) => l.length))));
      return [...(color ? lines.map(BOLD) : lines), under];
    }
    case 'paragraph':
      return wrapText(inlineText(b.parts), width);
    case 'table':
      return tableLines(b, width, color);
    case 'codeBlock':
      // Code keeps its own lines and indentation; only a line too long for the terminal is broken.
      return b.text.split('\n').flatMap((l) => (l.length > width ? wrapText(l, width) : [l]));
    case 'note':
      return wrapText(`${b.kind === 'warning' ? 'warning: ' : ''}${inlineText(b.parts)}`, width);
    case 'image':
      return wrapText(`[chart: ${b.alt || b.path}, ${b.path}]`, width);
    default:
      throw new Error(`render-terminal: unknown block type ${JSON.stringify(b.type)}`);
  }
}

/**
 * The document as lines of plain text, blocks a blank line apart.
 * @param {object} doc a document of model.js (its title is printed when it has one)
 * @param {object} [o] { width: columns (default 100), color: bold headings (default false) }
 */
function renderTerminal(doc, { width = 100, color = false } = {}) {
  const blocks = doc.title ? [{ type: 'heading', level: 1, text: doc.title }, ...doc.blocks] : doc.blocks;
  return blocks.map((b) => blockLines(b, width, color).join('\n')).join('\n\n') + '\n';
}

/** One table as lines (for output that is not a whole document). */
function renderTableLines(t, { width = 100, color = false } = {}) {
  return tableLines(t, width, color);
}

module.exports = { renderTerminal, renderTableLines, wrapText, fitWidths };

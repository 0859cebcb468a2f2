'use strict';
// The report model (model.js) as GitHub-flavoured Markdown. Running text is written as it is: the
// texts are the lab's own sentences and figures, and readers (tests, the README's glance table)
// search the file for them verbatim. Only what would break the structure is escaped: a pipe or a
// line break inside a table cell, brackets in a link's text, backticks inside inline code.
const { cellText } = require('./model');

// GitHub's heading ids: lower case, punctuation dropped, each space a hyphen; a repeated id gets -1, -2...
function slug(textOf) {
  return textOf
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchor GitHub gives each heading with an id, so a '#id' link lands on it. */
function anchors(doc) {
  const seen = new Map([[slug(doc.title), 1]]);
  const out = new Map();
  for (const b of doc.blocks.filter((x) => x.type === 'heading')) {
    const base = slug(b.text);
    const n = seen.get(base) || 0;
    seen.set(base, n + 1);
    if (b.id) out.set(b.id, n ? `${base}-${n}` : base);
  }
  return out;
}

/** Inline code that survives backticks in its text: a longer fence than any run inside. */
function codeSpan(t) {
  const longest = Math.max(0, ...(t.match(/`+/g) || []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${t} ${fence}` : `${fence}${t}${fence}`;
}

// A target with spaces or parentheses would end the link early.
const target = (href) => href.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
const linkText = (t) => t.replace(/([[\]])/g, '\\$1');

function linkOf(t, href, ids) {
  const to = href.startsWith('#') && ids.has(href.slice(1)) ? `#${ids.get(href.slice(1))}` : href;
  return `[${linkText(t)}](${target(to)})`;
}

function inline(parts, ids) {
  return parts
    .map((p) => {
      if (p.type === 'code') return codeSpan(p.text);
      if (p.type === 'bold') return `**${p.text}**`;
      if (p.type === 'link') return linkOf(p.text, p.href, ids);
      return p.text;
    })
    .join('');
}

// Inside a table a pipe ends the cell and a line break ends the row.
const tableSafe = (t) => String(t).replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');

function cellMarkdown(c, ids) {
  if (c.type === 'link') return tableSafe(linkOf(c.text, c.href, ids));
  return tableSafe(cellText(c));
}

function tableMarkdown(t, ids) {
  const out = [
    `| ${t.columns.map((c) => tableSafe(c.title)).join(' | ')} |`,
    `|${t.columns.map((c) => (c.align === 'right' ? '---:' : '---')).join('|')}|`,
  ];
  for (const r of t.rows) out.push(`| ${t.columns.map((_, i) => (r[i] ? cellMarkdown(r[i], ids) : '')).join(' | ')} |`);
  return out.join('\n');
}

/** A fenced block whose fence no line inside can close. */
function codeBlock(t) {
  const longest = Math.max(2, ...(t.match(/^`+/gm) || []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${t}\n${fence}`;
}

function blockMarkdown(b, ids) {
  switch (b.type) {
    case 'heading':
      return `${'#'.repeat(Math.min(6, Math.max(1, b.level)))} ${b.text}`;
    case 'paragraph':
      return inline(b.parts, ids);
    case 'table':
      return tableMarkdown(b, ids);
    case 'codeBlock':
      return codeBlock(b.text);
    case 'note':
      return `${b.kind === 'warning' ? 'warning: ' : ''}${inline(b.parts, ids)}`
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
    case 'image':
      return `![${linkText(b.alt)}](${target(b.path)})`;
    default:
      throw new Error(`render-markdown: unknown block type ${JSON.stringify(b.type)}`);
  }
}

/** The document as Markdown: its title as the one level-1 heading, blocks a blank line apart. */
function renderMarkdown(doc) {
  const ids = anchors(doc);
  return [`# ${doc.title}`, ...doc.blocks.map((b) => blockMarkdown(b, ids))].join('\n\n') + '\n';
}

/** One table alone (the README's glance table is a table, not a document). */
function tableToMarkdown(t) {
  return tableMarkdown(t, new Map());
}

module.exports = { renderMarkdown, tableToMarkdown, slug };

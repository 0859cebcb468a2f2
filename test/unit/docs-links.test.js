'use strict';
// Every relative link in the README and docs/ leads somewhere: the file exists and, for a link into a
// Markdown file's section, the heading does. The findings report and the README's glance table link each
// study's write-up from its declaration, so a study whose write-up is a section of another file (source
// 002's four studies share one) is checked here too. Pure: no server.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { studies } = require('../../lib/studies');

const ROOT = path.join(__dirname, '..', '..');

function markdownFiles() {
  const out = [path.join(ROOT, 'README.md')];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (e.name.endsWith('.md')) out.push(f);
    }
  };
  walk(path.join(ROOT, 'docs'));
  return out;
}

// GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens.
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file) {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set(
    text
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ''))),
  );
}

/** Problems with one relative link target (file#anchor) seen from `from`. */
function checkTarget(from, target) {
  const [file, anchor] = target.split('#');
  const abs = file ? path.resolve(path.dirname(from), decodeURIComponent(file)) : from;
  if (!fs.existsSync(abs)) return `${path.relative(ROOT, from)}: ${target} does not exist`;
  if (anchor && abs.endsWith('.md') && !anchorsOf(abs).has(anchor))
    return `${path.relative(ROOT, from)}: ${target} has no such section`;
  return null;
}

describe('documentation links', function () {
  it('every relative link and image in the README and docs/ leads to a file (and section) that exists', function () {
    const problems = [];
    let seen = 0;
    for (const f of markdownFiles()) {
      const text = fs
        .readFileSync(f, 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // http(s):, mailto:
        seen++;
        const p = checkTarget(f, target);
        if (p) problems.push(p);
      }
    }
    expect(seen).to.be.greaterThan(20);
    expect(problems).to.deep.equal([]);
  });

  it("every study's write-up (its declaration's writeUp, or docs/studies/<name>.md) exists, section included", function () {
    for (const entry of studies) {
      const target = entry.writeUp || `docs/studies/${entry.name}.md`;
      expect(checkTarget(path.join(ROOT, 'README.md'), target), entry.name).to.equal(null);
    }
  });

  it("the heading ids are GitHub's", function () {
    expect(slug('3. Random selection of an unprocessed task, and claiming it')).to.equal(
      '3-random-selection-of-an-unprocessed-task-and-claiming-it',
    );
    expect(slug('Where `touch` went')).to.equal('where-touch-went');
  });
});

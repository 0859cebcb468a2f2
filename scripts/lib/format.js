// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// Formatting numbers, answers, axis points and plain-text tables.

var LabFormat = (function (S) {
  // ---- output -------------------------------------------------------------------------------
  // A server number as a JavaScript number: mongosh hands sizes past 2^31 (a 50M-event
  // collection's dataSize) back as Long, and `0 + Long` concatenates strings instead of adding.
  function num(x) {
    if (typeof x === 'number') return x;
    if (x && typeof x.toNumber === 'function') return x.toNumber();
    return Number(x);
  }

  function fmtMs(ms) {
    if (ms >= 10000) return (ms / 1000).toFixed(1) + ' s';
    if (ms >= 1000) return (ms / 1000).toFixed(2) + ' s';
    if (ms >= 100) return ms.toFixed(0) + ' ms';
    if (ms >= 10) return ms.toFixed(1) + ' ms';
    if (ms >= 0.1) return ms.toFixed(2) + ' ms';
    return ms.toPrecision(2) + ' ms';
  }

  function fmtInt(n) {
    var parts = String(n).split('.');
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return parts.join('.');
  }

  function fmtFactor(x) {
    return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
  }

  // A ratio said the way round that gives a number >= 1, its range and interval in the same sense.
  // The factor is the comparison's one figure (mid, the interval's centre) when the record has it
  // (records from before it have only the median). `text` is the decision's cell (comparisonWords),
  // read from the stored interval: "2.84x faster" only when the interval says so.
  function speedWords(ratio) {
    var r = ratio;
    var fig = typeof r.mid === 'number' ? r.mid : r.median;
    var faster = fig < 1;
    var f = function (x) {
      return faster ? 1 / x : x;
    };
    var lo = faster ? f(r.max) : f(r.min);
    var hi = faster ? f(r.min) : f(r.max);
    var ci = r.ci ? (faster ? [f(r.ci[1]), f(r.ci[0])] : [f(r.ci[0]), f(r.ci[1])]) : null;
    return {
      factor: f(fig),
      faster: faster,
      lo: lo,
      hi: hi,
      ci: ci,
      text: comparisonWords(storedComparison(r, fig)).cell,
    };
  }

  // The comparison a record's stored ratio allows (no times at hand): its interval decides, the
  // same rule as LabStats.compareTimes (no interval stored: too few rounds or a capped side).
  function storedComparison(r, fig) {
    var lo = r.ci ? r.ci[0] : null;
    var hi = r.ci ? r.ci[1] : null;
    var decision = S.decide(lo, hi);
    if (decision === S.DECISION.wide) lo = hi = null;
    return { to: r.to, mid: fig, lo: lo, hi: hi, n: 0, perRound: !!r.perRound, decision: decision, why: '' };
  }

  // A time ratio as speed words: "2.19x faster" below 1, "1.85x slower" from 1 up.
  function ratioWords(x) {
    return x < 1 ? fmtFactor(1 / x) + 'x faster' : fmtFactor(x) + 'x slower';
  }

  // How every table and summary says one comparison (LabStats.compareTimes' result), so the point
  // table, the run summary, compare and the report cannot word it differently:
  //   cell  the "vs <baseline>" cell: "4.10x faster", "no clear difference", "too few rounds: ...",
  //         "interval too wide", "WRONG ANSWER", "not comparable"
  //   ci    the interval cell: "3.20..5.00" in the cell's sense when decided; both ends in words
  //         when not ("2.19x faster..1.85x slower"); '' when no interval may be shown
  //   line  the summary's sentence after the variant's name ("ran 4.10 times faster than base (...)")
  function comparisonWords(c) {
    var base = c.to || 'the baseline';
    var rounds = c.n + ' round' + (c.n === 1 ? '' : 's');
    var faster = c.mid !== null && c.mid < 1;
    var factor = c.mid === null ? null : faster ? 1 / c.mid : c.mid;
    var hasCi = c.lo !== null && c.lo !== undefined;
    var decided = c.decision === 'faster' || c.decision === 'slower';
    var ci = '';
    if (hasCi && decided)
      ci = faster ? fmtFactor(1 / c.hi) + '..' + fmtFactor(1 / c.lo) : fmtFactor(c.lo) + '..' + fmtFactor(c.hi);
    else if (hasCi && c.decision === 'no clear difference') ci = ratioWords(c.lo) + '..' + ratioWords(c.hi);
    var w = { cell: c.decision, ci: ci, line: '' };
    if (decided) {
      w.cell = fmtFactor(factor) + 'x ' + c.decision;
      w.line =
        'ran ' + fmtFactor(factor) + ' times ' + c.decision + ' than ' + base + ' (95% CI ' + ci + ', ' + rounds + ')';
    } else if (c.decision === 'no clear difference') {
      w.line = 'no clear difference from ' + base + ' (95% CI ' + ci + ', ' + rounds + ')';
    } else if (c.decision === 'too few rounds') {
      w.cell = c.mid === null ? c.decision : c.decision + ': ' + ratioWords(c.mid);
      w.line =
        'too few rounds to compare with ' +
        base +
        (c.mid === null ? '' : ': ' + ratioWords(c.mid) + ' at face value') +
        ' (' +
        c.why +
        ')';
    } else if (c.decision === 'interval too wide') {
      w.line = 'interval too wide to compare with ' + base + ' (' + c.why + ')';
    } else if (c.decision === 'wrong answer') {
      w.cell = 'WRONG ANSWER';
      w.line = 'not ranked, not compared with ' + base + ': its answer disagrees with the reference';
    } else {
      w.line = 'not comparable with ' + base + ': ' + c.why;
    }
    return w;
  }

  // columns: [{ key, title, right }]; rows: objects holding already formatted strings.
  // width (optional): a table wider than that is cut into blocks of columns that fit, a blank line
  // apart, each repeating the first column, so a terminal of that width never wraps a row.
  function tableLines(columns, rows, width) {
    var widths = columns.map(function (c) {
      return rows.reduce(function (w, r) {
        return Math.max(w, String(r[c.key] === undefined ? '' : r[c.key]).length);
      }, c.title.length);
    });
    var blocks = width
      ? columnBlocks(widths, width)
      : [
          widths.map(function (w, i) {
            return i;
          }),
        ];
    var out = [];
    blocks.forEach(function (idx, b) {
      var line = function (cells) {
        return idx
          .map(function (i) {
            var s = String(cells[i] === undefined ? '' : cells[i]);
            var pad = new Array(Math.max(0, widths[i] - s.length) + 1).join(' ');
            return columns[i].right ? pad + s : s + pad;
          })
          .join('  ')
          .replace(/\s+$/, '');
      };
      if (b) out.push('');
      out.push(
        line(
          columns.map(function (c) {
            return c.title;
          })
        ),
        line(
          widths.map(function (w) {
            return new Array(w + 1).join('-');
          })
        )
      );
      rows.forEach(function (r) {
        out.push(
          line(
            columns.map(function (c) {
              return r[c.key];
            })
          )
        );
      });
    });
    return out;
  }

  // Column indexes per block: the first column, then as many of the others as fit `width`.
  function columnBlocks(widths, width) {
    var blocks = [];
    var cur = [0];
    var used = widths[0];
    for (var i = 1; i < widths.length; i++) {
      if (cur.length > 1 && used + 2 + widths[i] > width) {
        blocks.push(cur);
        cur = [0];
        used = widths[0];
      }
      cur.push(i);
      used += 2 + widths[i];
    }
    blocks.push(cur);
    return blocks;
  }

  // Printed tables fit the terminal's 100 columns.
  function table(columns, rows) {
    tableLines(columns, rows, 100).forEach(function (l) {
      print(l);
    });
  }

  function fmtAnswer(b) {
    if (b === null || b === undefined) return '-';
    if (typeof b === 'number') return Number.isInteger(b) ? fmtInt(b) : String(Number(b.toPrecision(6)));
    if (typeof b !== 'object') return String(b);
    if (b.rows !== undefined && Object.keys(b).length === 1) return b.rows + ' rows';
    if (typeof b.count === 'number' && b.mean !== undefined)
      return 'n ' + fmtInt(b.count) + ', mean ' + (b.mean === null ? '-' : Number(b.mean.toPrecision(6)));
    var text = JSON.stringify(b);
    return text.length > 40 ? text.slice(0, 37) + '...' : text;
  }

  // Text broken into lines of at most `width` columns at spaces; lines after the first indented.
  // The text's own leading spaces stay on its first line.
  function wrap(text, width, indent) {
    var w = width || 100;
    var pad = indent === undefined ? '  ' : indent;
    var out = [];
    var line = '';
    var s = String(text);
    var lead = /^ */.exec(s)[0];
    s.slice(lead.length)
      .split(' ')
      .forEach(function (word) {
        var next = line ? line + ' ' + word : lead + word;
        if (next.length > w && line) {
          out.push(line);
          line = pad + word;
        } else {
          line = next;
        }
      });
    if (line) out.push(line);
    return out;
  }

  function pointLabel(axis) {
    var ks = Object.keys(axis || {});
    if (!ks.length) return '';
    return ks
      .map(function (k) {
        return k + '=' + (typeof axis[k] === 'number' ? fmtInt(axis[k]) : axis[k]);
      })
      .join(', ');
  }

  // What MIN_MS adds to "N timed rounds" in a header ('' when it is off): the shell's and the runner's.
  function minMsNote(minMs) {
    return minMs ? ' (more while under ' + fmtMs(minMs) + ' of timed work)' : '';
  }

  return {
    num: num,
    fmtMs: fmtMs,
    minMsNote: minMsNote,
    fmtInt: fmtInt,
    fmtFactor: fmtFactor,
    speedWords: speedWords,
    ratioWords: ratioWords,
    comparisonWords: comparisonWords,
    tableLines: tableLines,
    table: table,
    fmtAnswer: fmtAnswer,
    pointLabel: pointLabel,
    wrap: wrap,
  };
})(typeof LabStats !== 'undefined' ? LabStats : require('./stats'));

if (typeof module !== 'undefined' && module.exports) module.exports = LabFormat;

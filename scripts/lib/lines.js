// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// What a point prints: its table, warnings and hyperfine-style summary, and the @@LAB lines.

var LabLines = (function (S, F, R) {
  var median = S.median;
  var fmtMs = F.fmtMs;
  var fmtInt = F.fmtInt;
  var fmtFactor = F.fmtFactor;
  var fmtAnswer = F.fmtAnswer;
  var tableLines = F.tableLines;
  var pointLabel = F.pointLabel;
  var wrap = F.wrap;
  var NOT_HERE = R.NOT_HERE;
  var PREFIX = '@@LAB ';

  var WIDTH = 100;

  // A cell of at most n characters (an answer's JSON can be long; the agree line shows it whole).
  function clip(text, n) {
    var t = String(text);
    return t.length > n ? t.slice(0, n - 1) + '…' : t;
  }

  // What each variant is, once per run (opts.described: names already described), wrapped to the
  // terminal's 100 columns: in the table the sentences made it 400 columns wide.
  function legendLines(ran, described) {
    var seen = described || {};
    var out = [];
    ran.forEach(function (r) {
      if (!r.what || seen[r.variant]) return;
      seen[r.variant] = true;
      out = out.concat(
        wrap(r.variant + ': ' + r.what, WIDTH - 2, '    ').map(function (l) {
          return '  ' + l;
        })
      );
    });
    return out;
  }

  function fmtFor(unit) {
    return unit === 'ms'
      ? fmtMs
      : function (x) {
          return fmtInt(Number(x.toPrecision(4))) + ' ' + unit;
        };
  }

  // The point table's columns, before the ones empty on every row are left out.
  function pointColumns(ran, base) {
    var cols = [
      { key: 'variant', title: 'variant' },
      { key: 'answer', title: 'answer', right: true },
      { key: 'time', title: 'mean ± σ', right: true },
      { key: 'range', title: 'min..max', right: true },
      { key: 'runs', title: 'runs', right: true },
      { key: 'vs', title: 'vs ' + base, right: true },
      { key: 'ci', title: '95% CI', right: true },
      { key: 'plan', title: 'plan' },
      { key: 'engine', title: 'engine' },
    ];
    if (
      ran.some(function (r) {
        return r.agrees !== null;
      })
    )
      cols.push({ key: 'agrees', title: 'agrees' });
    return cols;
  }

  // Each variant's comparison with the point's baseline (LabStats.comparePoint), by name.
  function comparisonsBy(ran) {
    var by = {};
    S.comparePoint(ran).forEach(function (c) {
      by[c.variant] = c;
    });
    return by;
  }

  // One variant's row of the point table: its comparison in the words every table and summary uses.
  function pointRow(r, base, fmt, cmp) {
    var w = cmp ? F.comparisonWords(cmp) : null;
    var isBase = r.variant === base;
    return {
      variant: r.variant,
      answer: clip(fmtAnswer(r.answer), 24),
      time: r.runs > 1 ? fmt(r.mean) + ' ± ' + fmt(r.sd) : fmt(r.mean),
      range: fmt(r.min) + '..' + fmt(r.max),
      runs: r.runs + (r.capped ? '*' : ''),
      vs: isBase ? (r.agrees === false ? 'baseline, WRONG ANSWER' : 'baseline') : w ? w.cell : '',
      ci: isBase || !w ? '' : w.ci,
      plan: R.planCell(r.plan),
      engine: r.plan ? (r.plan.explainVersion === '2' ? 'SBE' : 'classic') : r.where === 'node' ? 'client' : '',
      agrees: r.agrees === null ? '' : r.agrees ? 'yes' : 'NO',
    };
  }

  // Agreeing on nothing (a misspelled collection reads empty for every form) is said as such.
  function agreeLine(answer) {
    return R.isEmptyAnswer(answer)
      ? 'all variants agree on an EMPTY answer (' +
          fmtAnswer(answer) +
          '): nothing found; check the collection, the database and the filters'
      : 'all variants agree (' + fmtAnswer(answer) + ')';
  }

  // The table and the summary of one axis point, the same text in the shell and in Node.
  // opts: { noSummary, described }
  function pointLines(records, o) {
    var opts = o || {};
    var ran = records.filter(function (r) {
      return !r.skipped;
    });
    var out = [];
    if (!ran.length) return skippedLines(records);
    var base = ran[0].ratio ? ran[0].ratio.to : ran[0].variant;
    var fmt = fmtFor(ran[0].unit || 'ms');
    var cols = pointColumns(ran, base);
    var cmp = comparisonsBy(ran);
    var rows = ran.map(function (r) {
      return pointRow(r, base, fmt, cmp[r.variant]);
    });
    // Columns empty on every row (no plan for client-side variants, no CI below 3 rounds) are left out,
    // and the answer when every variant's was checked and agrees (the line below the table shows it).
    var checked = ran.every(function (r) {
      return r.agrees === true;
    });
    cols = cols.filter(function (c) {
      if (c.key === 'answer' && checked) return false;
      return (
        c.key === 'variant' ||
        rows.some(function (r) {
          return r[c.key] !== '' && r[c.key] !== undefined;
        })
      );
    });
    out = out.concat(tableLines(cols, rows, WIDTH));
    if (checked) out = out.concat(wrap(agreeLine(ran[0].answer), WIDTH));
    out = out.concat(legendLines(ran, opts.described));
    if (
      ran.some(function (r) {
        return r.capped;
      })
    )
      out.push('* warm-up run took longer than BUDGET_MS: timed by that run only');
    out = out.concat(skippedLines(records), warningLines(ran));
    var over = ran
      .filter(function (r) {
        return typeof r.overheadMs === 'number';
      })
      .map(function (r) {
        return r.overheadMs;
      });
    if (over.length)
      out.push(
        'harness overhead per sample (call minus timed command): median ' +
          fmtMs(median(over)) +
          ', worst ' +
          fmtMs(Math.max.apply(null, over))
      );
    out = out.concat(latencyLines(ran));
    if (!opts.noSummary) out = out.concat(summaryLines(ran, pointLabel(ran[0].axis)));
    return out;
  }

  // Variants that did not run: one line per reason, naming them, wrapped.
  function skippedLines(records) {
    var out = [];
    // Variants that do not apply here (another part of the study, a rollup asked for seconds) get one
    // line between them: a line each buried the table under a dozen "skipped".
    var notHere = records.filter(R.isNotHere).map(function (r) {
      return r.variant;
    });
    // Variants not measured for one reason (the SQL peer cannot start here) share one line.
    var why = {};
    var order = [];
    records
      .filter(function (r) {
        return r.skipped && !R.isNotHere(r);
      })
      .forEach(function (r) {
        var reason = R.skipText(r.skipped);
        if (!why[reason]) {
          why[reason] = [];
          order.push(reason);
        }
        why[reason].push(r.variant);
      });
    order.forEach(function (reason) {
      out = out.concat(
        wrap(why[reason].join(', ') + ': ' + (/not measured/.test(reason) ? reason : 'skipped (' + reason + ')'), WIDTH)
      );
    });
    if (notHere.length) out = out.concat(wrap(NOT_HERE + ': ' + notHere.join(', '), WIDTH));
    return out;
  }

  // One line per kind of warning, naming the variants, so a busy machine does not bury the table.
  function warningLines(ran) {
    var out = [];
    var has = function (code) {
      return ran.filter(function (r) {
        return R.warningsOf(r, code).length > 0;
      });
    };
    var variantsOf = function (rs) {
      return rs
        .map(function (r) {
          return r.variant;
        })
        .join(', ');
    };
    var spread = has(R.WARN.spread);
    var first = has(R.WARN.firstRun);
    var busy = has(R.WARN.busy);
    if (spread.length)
      out.push('warning: large spread (σ > 25% of the mean) for ' + variantsOf(spread) + ': a busy machine? more RUNS');
    if (busy.length) out.push('warning: ' + R.warningsOf(busy[0], R.WARN.busy)[0].text);
    if (first.length)
      out.push(
        'warning: first timed run over 2x slower than the rest for ' +
          variantsOf(first) +
          ': caches still filling? more WARMUP'
      );
    if (
      ran.length &&
      ran.every(function (r) {
        return isEmptyAnswer(r.answer);
      })
    ) {
      out.push(
        'warning: every variant answered nothing (0, empty): is the collection, field or filter the one you meant?'
      );
    }
    return [].concat.apply(
      [],
      out.map(function (l) {
        return wrap(l, WIDTH);
      })
    );
  }

  // Points of one part where one variant ran each (write concerns, cold reads): one table whose rows
  // and columns are the axes that vary between them, instead of a one-row table per point.
  function pivotLines(records, o) {
    var opts = o || {};
    var ran = records.filter(function (r) {
      return !r.skipped;
    });
    var keys = varyingKeys(ran);
    if (ran.length < 2 || !keys.length) return pointLines(records, opts);
    var values = function (k) {
      return axisValues(ran, k);
    };
    var colKey =
      keys.length > 1
        ? keys.slice().sort(function (a, b) {
            return values(a).length - values(b).length;
          })[0]
        : null;
    var rowKeys = keys.filter(function (k) {
      return k !== colKey;
    });
    var fmt = fmtFor(ran[0].unit || 'ms');
    var rows = pivotRows(ran, rowKeys, colKey, fmt);
    var cols = rowKeys.map(function (k) {
      return { key: k, title: k };
    });
    if (colKey)
      values(colKey).forEach(function (v) {
        cols.push({ key: 'c:' + v, title: colKey + '=' + (typeof v === 'number' ? fmtInt(v) : v), right: true });
      });
    else
      cols.push(
        { key: 'median', title: 'median', right: true },
        { key: 'runs', title: 'runs', right: true },
        { key: 'agrees', title: 'agrees' }
      );
    var out = pivotHeading(ran, keys);
    out = out.concat(
      tableLines(cols, rows, WIDTH),
      legendLines(ran, opts.described),
      skippedLines(records),
      warningLines(ran)
    );
    return out.concat(pivotLatencyLines(ran, keys));
  }

  // The axes whose value differs between the records, in the order they first appear.
  function varyingKeys(ran) {
    var keys = [];
    ran.forEach(function (r) {
      Object.keys(r.axis || {}).forEach(function (k) {
        if (
          keys.indexOf(k) < 0 &&
          ran.some(function (x) {
            return JSON.stringify(x.axis[k]) !== JSON.stringify(r.axis[k]);
          })
        )
          keys.push(k);
      });
    });
    return keys;
  }

  // The values one axis takes, in the order they first appear.
  function axisValues(ran, k) {
    var seen = [];
    ran.forEach(function (r) {
      if (seen.indexOf(r.axis[k]) < 0) seen.push(r.axis[k]);
    });
    return seen;
  }

  // The pivot's rows: one per combination of the row axes, a cell per value of the column axis
  // (or median, runs and agrees when there is no column axis).
  function pivotRows(ran, rowKeys, colKey, fmt) {
    var rowId = function (r) {
      return rowKeys
        .map(function (k) {
          return String(r.axis[k]);
        })
        .join('|');
    };
    var rows = [];
    ran.forEach(function (r) {
      var row = rows.filter(function (x) {
        return x.id === rowId(r);
      })[0];
      if (!row) {
        row = { id: rowId(r) };
        rowKeys.forEach(function (k) {
          row[k] = typeof r.axis[k] === 'number' ? fmtInt(r.axis[k]) : String(r.axis[k]);
        });
        rows.push(row);
      }
      var cell = fmt(r.median) + (r.agrees === false ? ' WRONG ANSWER' : '');
      if (colKey) row['c:' + r.axis[colKey]] = cell;
      else {
        row.median = cell;
        row.runs = String(r.runs);
        row.agrees = r.agrees === null ? '' : r.agrees ? 'yes' : 'NO';
      }
    });
    return rows;
  }

  // The line above the pivot: the variants, the runs, the axes that do not vary, and the agreement.
  function pivotHeading(ran, keys) {
    var variants = [];
    ran.forEach(function (r) {
      if (variants.indexOf(r.variant) < 0) variants.push(r.variant);
    });
    var fixed = {};
    Object.keys(ran[0].axis || {}).forEach(function (k) {
      if (keys.indexOf(k) < 0) fixed[k] = ran[0].axis[k];
    });
    return wrap(
      'median time of ' +
        variants.join(', ') +
        ' (' +
        ran[0].runs +
        ' runs each' +
        (pointLabel(fixed) ? '; ' + pointLabel(fixed) : '') +
        ')' +
        (ran.every(function (r) {
          return r.agrees !== false;
        }) &&
        ran.some(function (r) {
          return r.agrees === true;
        })
          ? '; every answer agrees'
          : ''),
      WIDTH
    );
  }

  // The latency table of the pivot: each record named by its point on the varying axes.
  function pivotLatencyLines(ran, keys) {
    var lat = ran
      .filter(function (r) {
        return r.latency && r.latency.count;
      })
      .map(function (r) {
        var label = {};
        keys.forEach(function (k) {
          label[k] = r.axis[k];
        });
        return Object.assign({}, r, { variant: pointLabel(label) });
      });
    return latencyLines(lat);
  }

  // The tail a DBA watches: per-operation latency percentiles of the variants that timed their
  // operations (records' `latency`, an HdrHistogram over the timed rounds).
  function latencyLines(ran) {
    var withLat = ran.filter(function (r) {
      return r.latency && r.latency.count;
    });
    if (!withLat.length) return [];
    var cols = [
      { key: 'variant', title: 'latency per operation' },
      { key: 'count', title: 'ops', right: true },
    ];
    ['p50', 'p95', 'p99', 'max'].forEach(function (k) {
      cols.push({ key: k, title: k, right: true });
    });
    return tableLines(
      cols,
      withLat.map(function (r) {
        var l = r.latency;
        return {
          variant: r.variant,
          count: fmtInt(l.count),
          p50: fmtMs(l.p50),
          p95: fmtMs(l.p95),
          p99: fmtMs(l.p99),
          max: fmtMs(l.max),
        };
      }),
      WIDTH
    );
  }

  function isEmptyAnswer(b) {
    if (b === null || b === undefined || b === 0) return true;
    if (typeof b === 'object' && (b.rows === 0 || b.count === 0)) return true;
    return false;
  }

  // hyperfine's summary: every variant against the named baseline, at this axis point, ranked by
  // the one figure (LabStats.comparePoint); "N times faster" only when the interval says so, and a
  // variant whose answer disagrees last, unranked.
  function summaryLines(ran, label) {
    var cmps = S.comparePoint(ran);
    if (!cmps.length) return [];
    var base = cmps[0].to;
    var out = wrap(
      'Summary' +
        (label ? ' at ' + label : '') +
        ' (time against ' +
        base +
        ': geometric mean of per-round ratios, 95% CI; a difference counts beyond ' +
        fmtFactor(S.NO_DIFFERENCE) +
        'x)',
      WIDTH
    );
    cmps.forEach(function (c) {
      out = out.concat(
        wrap(c.variant + ' ' + F.comparisonWords(c).line, WIDTH - 2, '    ').map(function (l) {
          return '  ' + l;
        })
      );
    });
    return out;
  }

  // One machine-readable line per record: grep '^@@LAB ' and parse the rest as Extended JSON.
  function emit(obj) {
    print(PREFIX + EJSON.stringify(obj, { relaxed: true }));
  }

  return {
    PREFIX: PREFIX,
    pointLines: pointLines,
    isEmptyAnswer: isEmptyAnswer,
    summaryLines: summaryLines,
    latencyLines: latencyLines,
    pivotLines: pivotLines,
    legendLines: legendLines,
    emit: emit,
  };
})(
  typeof LabStats !== 'undefined' ? LabStats : require('./stats'),
  typeof LabFormat !== 'undefined' ? LabFormat : require('./format'),
  typeof LabRecords !== 'undefined' ? LabRecords : require('./records')
);

if (typeof module !== 'undefined' && module.exports) module.exports = LabLines;

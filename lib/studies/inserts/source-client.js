'use strict';
// The source's client gate of the 002 insert claims: "using MySQLdb and PyMongo clients for
// Python". At w: 0 a writer's rate is the client's cost per message as much as the server's (the
// Node driver's is not PyMongo's), so a claim is judged on the PyMongo writers (py-writers.js) where
// they ran, the Node driver's verdict and figure beside; where they did not, a decisive verdict
// measured with the Node driver is shown with its would-be word, not given (not reproduced here,
// absent: 'client'). A changed client is never read as a change in MongoDB.
//
// The rules read the Node writers' names (async-w0, processes-w0, async, processes); the PyMongo
// view of the records is the same records with each Node twin's results taken out and the py-*
// results renamed to their twin, so every rule judges PyMongo exactly as it judges the Node driver
// (the same rounds, gates and bands: no rule changes).
const { results, DECISIVE, VERDICT, LABEL, keepBands, fx } = require('../../core/claims');
const { PY_TWINS } = require('./py-writers');
const { SETUP } = require('../../infra/pymongo');

const SOURCE_CLIENT_VARIANT = /^py-/;
const PY_OF = Object.fromEntries(Object.entries(PY_TWINS).map(([py, node]) => [node, py]));
const NODE_TWINS = new Set(Object.values(PY_TWINS));

const isResult = (r) => r.type === 'result';

/** The records as the Node driver measured them: no py-* results. */
function nodeView(records) {
  return records.filter((r) => !(isResult(r) && SOURCE_CLIENT_VARIANT.test(r.variant)));
}

/** The records as PyMongo measured them: each py-* result under its Node twin's name, the Node twins' own taken out. */
function pyView(records) {
  const out = [];
  for (const r of records) {
    if (isResult(r) && NODE_TWINS.has(r.variant)) continue;
    if (isResult(r) && PY_TWINS[r.variant]) out.push({ ...r, variant: PY_TWINS[r.variant], measuredAs: r.variant });
    else out.push(r);
  }
  return out;
}

/** "PyMongo 4.20.1" as the records say, else "PyMongo". */
function clientOf(records, variant) {
  const r = results(records).find((x) => x.variant === variant && x.extra && x.extra.client);
  return (r && r.extra.client) || 'PyMongo';
}

/** A verdict's figure in a few words: its figure, else its interval's centre. */
function figureOf(o) {
  if (o.figure) return o.figure;
  if (o.interval && o.interval.mid !== undefined && o.interval.mid !== null) return fx(o.interval.mid);
  return null;
}

const joined = (...xs) => xs.filter(Boolean).join('; ');

/**
 * `fn` (a claim's verdict over the Node writers' names) judged on the source's client: on the
 * PyMongo twins when the inferred writer's twin ran (`needs[0]`, a Node name; the others named
 * in the setting), the Node driver's verdict beside; else the Node driver's, a decisive one not
 * given. Records made from the source's own figures (lib/core/source-replay.js, `source: true`) are
 * the source's client.
 */
function onSourceClient(fn, needs) {
  return keepBands((records, env, params) => {
    if (results(records).some((r) => r.source)) return fn(records, env, params);
    const py = needs.map((v) => PY_OF[v]).filter(Boolean);
    const ran = (v) => results(records).some((r) => r.variant === v);
    const node = fn(nodeView(records), env, params);
    if (py.length && ran(py[0])) {
      const o = fn(pyView(records), env, params);
      const client = clientOf(records, py[0]);
      const used = py.filter(ran);
      const here = `measured with ${client}, the source's client (${used.map((v) => `${v} for ${PY_TWINS[v]}`).join(', ')}: Python threads for the Node async loops)${used.length < py.length ? `; ${py.filter((v) => !ran(v)).join(', ')} did not run` : ''}`;
      const beside = `the Node driver beside: ${LABEL[node.verdict]}${figureOf(node) ? ` (${figureOf(node)})` : ''}`;
      return {
        ...o,
        figure: o.figure ? `${client}: ${o.figure}` : o.figure,
        setting: { ...(o.setting || {}), here: joined(o.setting && o.setting.here, here) },
        why: joined(o.why, beside),
      };
    }
    const here = "measured with the Node driver, not the source's client (PyMongo, CPython)";
    if (!DECISIVE.includes(node.verdict)) return node;
    return {
      ...node,
      verdict: VERDICT.NOT_REPRODUCED,
      setting: {
        ...(node.setting || {}),
        here: joined(node.setting && node.setting.here, here),
        ok: false,
        absent: 'client',
      },
      why: `not reproduced here: ${here}; on the Node driver it reads ${LABEL[node.verdict]}: ${node.why}; to reproduce: the PyMongo writers (${py.join(', ')}; ${SETUP}), then the same run`,
    };
  }, fn);
}

module.exports = { onSourceClient, pyView, nodeView, SOURCE_CLIENT_VARIANT };

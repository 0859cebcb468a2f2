'use strict';
// The source's claims (002, inserts: MongoDB vs MySQL vs Memcached), judged on the inserts study's records.
const { docsPerSec, fmtRate, find } = require('./records');

module.exports = [
  {
    id: '002-bulk', claim: 'bulk insertion is faster than sequential for every store; MongoDB ~16x faster than MySQL at inserting',
    seedFigure: 'bulk 1.2-2.5x faster per store; MongoDB 14-18x faster than MySQL', setting: 'MongoDB 2.x, MySQL 5.x, Python clients, 2^14 rows, 12 cores',
    verdict(records) {
      const W1 = { part: 'batch', W: 1 };
      const one = find(records, 'async', { ...W1, batch: 1 });
      const bulk = find(records, 'async', { ...W1, batch: 1000 });
      if (!one || !bulk) return { verdict: 'not-measurable', figure: '-', why: 'needs the batch 1 and 1000 points at W=1' };
      const mongoBulk = docsPerSec(bulk) / docsPerSec(one);
      const pOne = find(records, 'pg', { ...W1, batch: 1 });
      const pBulk = find(records, 'pg', { ...W1, batch: 1000 });
      const parts = [`MongoDB insertMany 1000 ${mongoBulk.toFixed(0)}x insertOne (${fmtRate(docsPerSec(one))} -> ${fmtRate(docsPerSec(bulk))})`];
      let pgBulk = null;
      if (pOne && pBulk) {
        pgBulk = docsPerSec(pBulk) / docsPerSec(pOne);
        parts.push(`PostgreSQL multi-row 1000 ${pgBulk.toFixed(0)}x INSERT per row (${fmtRate(docsPerSec(pOne))} -> ${fmtRate(docsPerSec(pBulk))})`);
        parts.push(`MongoDB/PostgreSQL: ${(docsPerSec(one) / docsPerSec(pOne)).toFixed(1)}x one by one, ${(docsPerSec(bulk) / docsPerSec(pBulk)).toFixed(1)}x in batches`);
      }
      // Thresholds: batches must give more than 1.5x (the source's low end 1.2x, and the lab's
      // "no clear difference" band); MongoDB at least 5x the SQL store one by one, a third of the
      // source's ~16x. Without PostgreSQL only the bulk half is judged.
      const holdsBulk = mongoBulk > 1.5 && (pgBulk === null || pgBulk > 1.5);
      const ratioOne = pOne && pBulk ? docsPerSec(one) / docsPerSec(pOne) : null;
      return {
        verdict: holdsBulk ? (ratioOne !== null && ratioOne < 5 ? 'changed' : 'holds') : 'changed',
        figure: parts.join('; '),
        why: holdsBulk
          ? `batches win${pgBulk === null ? '' : ' for both stores'}, by far more than in 2012 (one round trip per batch); ` +
            (ratioOne === null ? 'PostgreSQL was not measured, so MongoDB against a SQL store is not judged'
              : ratioOne < 5 ? 'but MongoDB is not ~16x faster than a SQL store: with comparable durability (synchronous_commit off vs w:1 without j) they are within a small factor'
                : `MongoDB leads the SQL peer (${ratioOne.toFixed(1)}x one by one)`)
          : 'batches did not beat one-by-one inserts here',
      };
    },
  },
  {
    id: '002-processes', claim: 'more processes raise throughput (12-core server); thread results unclear',
    seedFigure: '0.11 -> 0.09 ms per insert from 16 to 64 processes', setting: 'MongoDB 2.x, mpi4py processes and Python threads, 12 cores',
    verdict(records, env) {
      const pts = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.part === 'batch' && r.axis.batch === 1);
      const curve = (v) => pts.filter((r) => r.variant === v).sort((a, b) => a.axis.W - b.axis.W).map((r) => ({ W: r.axis.W, rate: docsPerSec(r) }));
      const pr = curve('processes');
      const th = curve('async');
      const cn = curve('connections');
      if (pr.length < 2) return { verdict: 'not-measurable', figure: '-', why: 'needs W >= 2 points at batch 1' };
      const best = pr.reduce((a, b) => (b.rate > a.rate ? b : a));
      const gain = best.rate / pr[0].rate;
      const fmt = (c) => c.map((x) => `W${x.W} ${fmtRate(x.rate)}`).join(', ');
      const cores = env && env.host && env.host.cores;
      const on = cores ? ` on ${cores} cores` : '';
      // "threads": the best async rate against the best process rate (0.8x of it or more keeps up)
      const bestTh = th.length ? Math.max(...th.map((x) => x.rate)) : null;
      const threads = bestTh === null ? ''
        : bestTh >= 0.8 * best.rate ? '. Async loops on one client (Node\'s answer to threads) keep up with processes without a process per writer'
          : '. Async loops on one client (Node\'s answer to threads) did not keep up with processes here';
      return {
        verdict: gain > 1.3 ? 'holds' : 'changed',
        figure: `insertOne, processes: ${fmt(pr)}; async loops on one client ("threads"): ${fmt(th)}; connections: ${fmt(cn)}`,
        why: gain > 1.3
          ? `more writers raise throughput up to about the machine's cores (best ${best.W} processes, ${gain.toFixed(1)}x one), then flatten${on ? `:${on} the server and the writers share the CPUs` : ''}${threads}`
          : `more processes did not raise throughput on this machine (${cores ? `${cores} cores; ` : ''}best ${best.W} process${best.W > 1 ? 'es' : ''}, ${gain.toFixed(2)}x one; threshold 1.3x)${threads}`,
      };
    },
  },
];

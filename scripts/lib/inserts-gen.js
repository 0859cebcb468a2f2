// Seeded generators for study 002 (inserts, the price of coherency, random task selection and
// simulated joins), shared by the shell scripts (load(__dirname + '/lib/inserts-gen.js')) and the
// Node layer (require). One implementation on both sides: the documents a script inserts and the
// ones Node's oracle reasons about are the same, byte for byte, for the same seed.
// Plain ES2017: no modules, no BigInt, no console, so it also loads in older shells.

// mulberry32 comes from gen.js, the lab's one seeded generator (loaded here if the script has not).
if (typeof LabGen === 'undefined') {
  if (typeof module !== 'undefined' && module.exports && typeof require === 'function' && typeof load === 'undefined') {
    globalThis.LabGen = require('./gen');
  } else {
    load(__dirname + '/gen.js');
  }
}

var LabInserts = (function () {
  var rng = LabGen.rng;

  var ALPHA = 'abcdefghijklmnopqrstuvwxyz0123456789';

  // `len` random characters. Random text does not compress much, so WiredTiger's snappy does not
  // turn a "16 KB document" into a 1 KB one on disk.
  function text(next, len) {
    var parts = [];
    for (var i = 0; i < len; i++) parts.push(ALPHA.charAt(Math.floor(next() * 36)));
    return parts.join('');
  }

  // Generating random text character by character costs ~16k steps per 16 KB document, so
  // documents take their filler from one random pool per seed, at a random offset each. Still
  // incompressible within a document; distinct across documents.
  var POOL_CHARS = 262144;
  var pools = {};

  function pool(seed) {
    if (!pools[seed]) pools[seed] = text(rng(seed), POOL_CHARS);
    return pools[seed];
  }

  // `len` characters (len <= POOL_CHARS) for item i of a seeded set: the same for the same
  // (seed, i) whichever worker or process asks, so a set split over W workers is still one set.
  function filler(seed, i, len) {
    var p = pool(seed);
    var off = Math.floor(rng((seed * 1000003 + i) >>> 0)() * (POOL_CHARS - len + 1));
    return p.substr(off, len);
  }

  // BSON size of {_id: int32, k: int32, pad: string}: 4 (length) + 1 (end) + _id 1+4+4 + k 1+2+4
  // + pad 1+4+4+len+1 = 31 + len. So a `size`-byte document carries size - 31 characters.
  var PAYLOAD_OVERHEAD = 31;
  var MIN_SIZE = PAYLOAD_OVERHEAD;
  var MAX_SIZE = POOL_CHARS;

  // One insert-benchmark document of exactly `size` BSON bytes (31 <= size <= 262144) for
  // _id = i < 2^31; k carries the same number (an index in some variants).
  function payloadDoc(seed, i, size) {
    return { _id: i, k: i, pad: filler(seed, i, Math.max(0, size - PAYLOAD_OVERHEAD)) };
  }

  function payloadDocs(seed, from, to, size) {
    var out = [];
    for (var i = from; i < to; i++) out.push(payloadDoc(seed, i, size));
    return out;
  }

  // The seed's race entries: "a key and some randomly generated data with a fixed size of y
  // chars". Every worker holds the same n entries in the same order.
  function raceEntries(seed, n, chars) {
    var out = [];
    for (var key = 0; key < n; key++) out.push({ key: key, data: filler(seed, key, chars) });
    return out;
  }

  // The seed's task table: {processed: 0|1} plus a random field r in [0, 1) for the indexed
  // random pick. About `doneFraction` of the tasks are already processed (the issue: 100k of 1M).
  function taskDoc(next, i, doneFraction) {
    var processed = next() < doneFraction ? 1 : 0;
    var r = next();
    return { _id: i, processed: processed, r: r, payload: 'task-' + i };
  }

  // Joins: customers and orders. A customer has its _id, a string code (indexed in the study)
  // and the same value again as alias (never indexed), a name and a region.
  var REGIONS = ['north', 'south', 'east', 'west', 'centre', 'coast', 'hills', 'islands'];

  function customerDoc(next, c) {
    var region = REGIONS[Math.floor(next() * REGIONS.length)];
    var code = 'C' + c;
    return { _id: c, code: code, alias: code, name: 'customer ' + c + ' ' + text(next, 8), region: region };
  }

  // An order points at one customer by _id (cust) and by code (custCode); amounts are whole cents
  // so sums are exact whatever the order of addition.
  function orderDoc(next, i, nCustomers) {
    var c = Math.floor(next() * nCustomers);
    var cents = 100 + Math.floor(next() * 99900);
    return { _id: i, cust: c, custCode: 'C' + c, cents: cents };
  }

  // The summary every join variant returns: per region, the number of orders and their total.
  // Orders whose customer is missing count under region null (none are, in the generated data).
  function joinSummaryAdd(acc, region, cents) {
    var key = region === undefined || region === null ? '(none)' : region;
    if (!acc[key]) acc[key] = { orders: 0, cents: 0 };
    acc[key].orders += 1;
    acc[key].cents += cents;
    return acc;
  }

  function joinSummaryRows(acc) {
    return Object.keys(acc).sort().map(function (k) { return { region: k, orders: acc[k].orders, cents: acc[k].cents }; });
  }

  // The indexes each coherency pattern relies on (null: none); the check-then-insert index makes
  // the check a lookup, not a scan (the source looked keys up by key). Shared by the shell script
  // and the Node workers, so both build the same race.
  var RACE_INDEX = {
    'check-then-insert': { unique: false },
    'unique-insert': { unique: true },
    'upsert-unique': { unique: true },
    'upsert-index': { unique: false },
    'upsert-noindex': null,
    'txn-check-insert': { unique: false },
    'txn-guard': { unique: false },
  };

  return {
    RACE_INDEX: RACE_INDEX,
    rng: rng,
    text: text,
    filler: filler,
    PAYLOAD_OVERHEAD: PAYLOAD_OVERHEAD,
    MIN_SIZE: MIN_SIZE,
    MAX_SIZE: MAX_SIZE,
    payloadDoc: payloadDoc,
    payloadDocs: payloadDocs,
    raceEntries: raceEntries,
    taskDoc: taskDoc,
    REGIONS: REGIONS,
    customerDoc: customerDoc,
    orderDoc: orderDoc,
    joinSummaryAdd: joinSummaryAdd,
    joinSummaryRows: joinSummaryRows,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabInserts;

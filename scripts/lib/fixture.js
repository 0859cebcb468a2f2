// LabFixture: the ONE ownership protocol for everything the lab writes, shared by the shell scripts
// (load(__dirname + '/lib/fixture.js'); needs LabGen from gen.js for ensure()) and by Node
// (lib/infra/targets.js and lib/infra/loader.js require it: the decisions are these functions; only
// the I/O differs, synchronous here, asynchronous there). Plain ES2017, no require/console/EJSON,
// so it also loads in older shells.
//
// Ownership is by identity. The marker collection of each database (META, 'perflab_fixtures')
// holds one document per collection the lab made: {_id: collName, uuid: <the collection's UUID,
// 32 hex digits, from listCollections info.uuid>, made: {at, kind, options}, fixture, n, seed, ...,
// complete}. The lab owns a collection only while its marker names the collection's CURRENT UUID:
//   - no collection, marker or not             -> 'absent'  (a marker left is stale: removed)
//   - a collection whose UUID the marker names -> 'own'
//   - any other existing collection (or view), EMPTY OR NOT, with no marker or a marker naming
//     another UUID (the user dropped and recreated it)  -> 'foreign': read as it is, never filled,
//     indexed, dropped or converted. A marker naming another UUID is stale and removed.
// The lab creates a collection explicitly (createCollection fails if one appeared meanwhile), reads
// its UUID, writes the marker, and only then fills it: a crash in between leaves either an empty
// collection the lab can prove it made, or (in the instant between create and marker) an empty
// unmarked one that the lab will not touch again.
//
//   LabFixture.META, checkTarget(dbName, collName)  the marker collection; one-line Error for
//                          admin/local/config, system.*, the marker collection, malformed names
//   LabFixture.uuidHex(uuid), identity(info)       a UUID (mongosh, Node driver, 4.2 shell) as hex
//   LabFixture.ownership(meta, info)               -> {state: 'absent'|'own'|'foreign', stale, why}
//   LabFixture.decide(meta, count, spec, info)     -> {action, why, stale}; action is one of
//       'create'     no collection: create it, mark it, generate (the shell asks for GENERATE first)
//       'reuse'      own, complete, same spec and count === spec.n
//       'resume'     own, same spec, load unfinished (or documents missing): insert again
//       'regenerate' own, another spec (or more documents than the spec): drop, create, generate
//       'foreign'    exists and not provably the lab's: never dropped, filled or indexed
//   LabFixture.marker(name, uuid, kind, options, spec)  the marker document the lab writes
//   Shell I/O: inspect(dbh, name), claim(dbh, name, opts), dropOwned(dbh, name), release(dbh, name,
//   why), ensure(dbh, collName, spec, makeDoc, opts): the Node twins are in lib/infra/targets.js.
//   LabFixture.insertOutcome(err, batchLength) {inserted, duplicates, other: [writeErrors]} of a
//                                            failed insertMany (mongosh and the 4.2 shell)
//   What the lab leaves behind (docs/safety.md): cleanPlan(markers, infos, markersInfo, before) decides
//   what may go; runStart(dbh) before a drop-in writes, finishRun(dbh, start, {keep}) at its end
//   (what the run made in a database the lab did not make goes unless KEEP; what is left is named
//   with the clean command: leftLines). The marker collection is the lab's when its MARKERS_MARK
//   (or DB_MARK) document names its UUID (claimMarkers). Node twins: lib/infra/targets.js.

var LabFixture = (function () {
  var META = 'perflab_fixtures';
  // The generators' version, in the marker of every generated fixture (spec.fixture): bump it when
  // a generator (scripts/lib/gen.js, or a Node loader's twin of it) makes other documents for the
  // same seed and size, so that data kept from before (--keep, KEEP = true) is regenerated (the
  // lab's own collection) instead of reused as if it were the same. A marker without one: version 1.
  var GENERATOR_VERSION = 1;
  var SYSTEM_DBS = { admin: 1, local: 1, config: 1 };

  function checkTarget(dbName, collName) {
    var d = String(dbName);
    if (!/^[^/\\. "$*<>:|?\x00]{1,63}$/.test(d)) {
      throw new Error('database name ' + JSON.stringify(d) + ' is not valid: use letters, digits, _ or -');
    }
    if (SYSTEM_DBS[d.toLowerCase()]) {
      throw new Error(
        'database ' +
          JSON.stringify(d) +
          ' belongs to MongoDB itself; the lab never writes there: choose another database (e.g. perflab)'
      );
    }
    if (collName === undefined || collName === null) return;
    var c = String(collName);
    if (!c.length || c.length > 200 || /[\x00$]/.test(c) || c.charAt(0) === '.' || c.charAt(c.length - 1) === '.') {
      throw new Error(
        'collection name ' + JSON.stringify(c) + ' is not valid (empty, "$", NUL, or a leading/trailing dot)'
      );
    }
    if (/^system\./i.test(c)) {
      throw new Error(
        'collection ' + JSON.stringify(c) + ' is a system collection; the lab never writes there: choose another name'
      );
    }
    if (c === META) {
      throw new Error('collection ' + JSON.stringify(c) + " is the lab's marker collection: choose another name");
    }
  }

  function sameSpec(meta, spec) {
    if (!meta) return false;
    for (var k in spec) {
      if (Object.prototype.hasOwnProperty.call(spec, k) && meta[k] !== spec[k]) return false;
    }
    return true;
  }

  // A collection UUID as 32 lowercase hex digits, whichever shell or driver produced it; null if none.
  function uuidHex(u) {
    if (u === undefined || u === null) return null;
    var h = null;
    if (typeof u === 'string') h = u;
    else if (typeof u.hex === 'function')
      h = u.hex(); // the 4.2 shell's BinData
    else if (typeof u.toString === 'function') h = u.toString('hex'); // bson Binary / UUID (mongosh, Node)
    h = h === null ? null : String(h).replace(/-/g, '').toLowerCase();
    return h && /^[0-9a-f]{32}$/.test(h) ? h : null;
  }

  // The identity of a listCollections entry (null when absent, a view, or without a UUID).
  function identity(info) {
    return info && info.info ? uuidHex(info.info.uuid) : null;
  }

  function ownership(meta, info) {
    if (!info) {
      return {
        state: 'absent',
        stale: !!meta,
        why: meta ? 'its lab marker is stale (the collection is gone)' : 'does not exist',
      };
    }
    var id = identity(info);
    if (meta && meta.uuid && id && meta.uuid === id && info.type !== 'view')
      return { state: 'own', stale: false, why: 'made by the lab (UUID ' + id + ')' };
    if (info.type && info.type !== 'collection')
      return {
        state: 'foreign',
        stale: !!meta,
        why: 'is a ' + info.type + (info.type === 'view' ? '' : ' collection') + ' the lab did not make',
      };
    if (meta) {
      return {
        state: 'foreign',
        stale: true,
        why:
          'is not the collection the lab made (its lab marker names ' +
          (meta.uuid
            ? 'UUID ' + meta.uuid + ', this one is ' + id + ': dropped and created again since'
            : 'no identity') +
          ')',
      };
    }
    return {
      state: 'foreign',
      stale: false,
      why: 'exists and was not made by the lab (no lab marker names its UUID ' + id + ')',
    };
  }

  // info: the collection's listCollections entry, or null when it does not exist.
  function decide(meta, count, spec, info) {
    var o = ownership(meta, info);
    if (o.state === 'absent') return { action: 'create', why: o.why, stale: o.stale };
    if (o.state === 'foreign')
      return {
        action: 'foreign',
        why: o.why + (count > 0 ? ', holds ' + count + ' documents' : ', empty'),
        stale: o.stale,
      };
    if (!sameSpec(meta, spec)) {
      return { action: 'regenerate', why: 'generated by the lab for ' + describe(meta) + ', now ' + describe(spec) };
    }
    var made = meta.generatorVersion || 1;
    if (meta.fixture !== undefined && made !== GENERATOR_VERSION)
      return {
        action: 'regenerate',
        why: 'generated by the lab with generator version ' + made + ', now ' + GENERATOR_VERSION,
      };
    if (!meta.complete) return { action: 'resume', why: 'an earlier load of ' + describe(spec) + ' did not finish' };
    if (typeof spec.n === 'number' && count < spec.n)
      return { action: 'resume', why: 'marked complete but holds ' + count + ' of ' + spec.n + ' documents' };
    if (typeof spec.n === 'number' && count > spec.n)
      return { action: 'regenerate', why: 'holds ' + count + ' documents, more than the ' + spec.n + ' generated' };
    return { action: 'reuse', why: 'complete: ' + describe(spec) };
  }

  // The marker of a collection the lab just created: its identity, what was made, then the spec.
  function marker(name, uuid, kind, options, spec) {
    var m = {
      _id: name,
      uuid: uuid,
      made: { at: new Date(), kind: kind || 'collection', options: options || {} },
      complete: false,
    };
    if (spec && spec.fixture !== undefined) m.generatorVersion = GENERATOR_VERSION;
    for (var k in spec || {})
      if (Object.prototype.hasOwnProperty.call(spec, k) && k !== '_id' && k !== 'uuid' && k !== 'made') m[k] = spec[k];
    return m;
  }

  // The one line that refuses a foreign collection.
  function foreignMessage(target, why, doing) {
    return (
      target +
      ' ' +
      why +
      '; the lab ' +
      (doing ? 'would ' + doing + ' it, and ' : '') +
      'never fills, indexes, drops or converts a collection it did not make: choose another collection name (or database), or drop it yourself'
    );
  }

  // Several collections in the way, in one line: the user renames or drops them in one go.
  // found: [{target, why}].
  function foreignManyMessage(found, doing) {
    if (found.length === 1) return foreignMessage(found[0].target, found[0].why, doing);
    var targets = found.map(function (f) {
      return f.target;
    });
    return (
      targets.join(', ') +
      ': ' +
      found.length +
      ' collections the lab did not make (' +
      found[0].target +
      ' ' +
      found[0].why +
      '); the lab would ' +
      doing +
      ' them, and never fills, indexes, drops or converts a collection it did not make: choose another collection name (or database), or drop them yourself'
    );
  }

  function describe(s) {
    var parts = [];
    for (var k in s) {
      if (Object.prototype.hasOwnProperty.call(s, k) && k !== '_id' && k !== 'complete' && typeof s[k] !== 'object')
        parts.push(k + '=' + s[k]);
    }
    return parts.join(' ');
  }

  // The outcome of a failed unordered insertMany, in mongosh (MongoBulkWriteError: writeErrors,
  // result.insertedCount) and in the 4.2 shell (BulkWriteError: getWriteErrors(), nInserted).
  // Returns null when the error carries no per-document outcome (network, server gone...).
  function insertOutcome(err, batchLength) {
    if (!err) return null;
    var errs = err.writeErrors;
    if (!errs && typeof err.getWriteErrors === 'function') errs = err.getWriteErrors();
    if (!errs || !errs.length) {
      if (err.code === 11000 && batchLength === 1) return { inserted: 0, duplicates: 1, other: [] };
      return null;
    }
    var dups = 0;
    var other = [];
    for (var i = 0; i < errs.length; i++) {
      var code = errs[i].code !== undefined ? errs[i].code : errs[i].err && errs[i].err.code;
      if (code === 11000) dups++;
      else other.push(errs[i]);
    }
    var inserted;
    if (err.result && typeof err.result.insertedCount === 'number') inserted = err.result.insertedCount;
    else if (typeof err.insertedCount === 'number') inserted = err.insertedCount;
    else if (typeof err.nInserted === 'number') inserted = err.nInserted;
    else inserted = batchLength - errs.length;
    // A write-concern error means the server could not confirm durability: not a clean outcome.
    if (err.writeConcernError || (err.result && err.result.writeConcernErrors && err.result.writeConcernErrors.length))
      return null;
    return { inserted: inserted, duplicates: dups, other: other };
  }

  function errMessage(e) {
    var m = e && (e.errmsg || e.message || (e.err && e.err.errmsg));
    return m ? String(m).split('\n')[0] : String(e);
  }

  // ---- shell I/O (the Node twins: lib/infra/targets.js) ------------------------------------------
  // A time-series collection's identity is its buckets collection's UUID (the view has none).
  function collInfo(dbh, name) {
    var a = dbh.getCollectionInfos({ name: name });
    var info = a && a.length ? a[0] : null;
    if (info && info.type === 'timeseries' && !(info.info && info.info.uuid)) {
      var b = dbh.getCollectionInfos({ name: 'system.buckets.' + name });
      info.info = Object.assign({}, info.info || {}, { uuid: b && b.length && b[0].info ? b[0].info.uuid : undefined });
    }
    return info;
  }

  // {marker, meta, info, count, owner, target}. Reads only: a stale marker grants nothing and is
  // left where it is (a run that then refuses writes nothing, not even in a perflab_fixtures the
  // user made); creating the collection replaces it, and `mongo-perf-lab clean` removes it.
  function inspect(dbh, name) {
    checkTarget(dbh.getName(), name);
    var markers = dbh.getCollection(META);
    var meta = markers.findOne({ _id: name });
    var info = collInfo(dbh, name);
    var owner = ownership(meta, info);
    var count =
      info && (!info.type || info.type === 'collection') ? dbh.getCollection(name).estimatedDocumentCount() : 0;
    // marker: as found (decide() explains a stale one); meta: only a marker that grants ownership.
    return {
      marker: meta,
      meta: owner.state === 'own' ? meta : null,
      info: info,
      count: count,
      owner: owner,
      target: dbh.getName() + '.' + name,
    };
  }

  // Creates name (it must not exist), reads its UUID, writes its marker: returns the UUID.
  function createOwned(dbh, name, options, kind, spec) {
    var target = dbh.getName() + '.' + name;
    claimDatabase(dbh); // a database the lab found empty is the lab's (only there it writes system.js)
    claimMarkers(dbh);
    var res;
    try {
      res = dbh.createCollection(name, options || {});
    } catch (e) {
      res = { ok: 0, code: e.code, errmsg: errMessage(e) };
    }
    if (res && res.ok === 0) {
      if (res.code === 48) throw new Error(foreignMessage(target, 'appeared while the lab was creating it'));
      throw new Error(target + ': could not create it (' + res.errmsg + ')');
    }
    var id = identity(collInfo(dbh, name));
    if (!id)
      throw new Error(
        target + ': created, but the server reports no UUID for it; the lab cannot prove it owns it and stops'
      );
    dbh.getCollection(META).replaceOne({ _id: name }, marker(name, id, kind, options, spec), { upsert: true });
    return id;
  }

  // A collection the lab writes into (rollups, buckets, copies, scratch, join inputs, tasks...):
  // opts {kind, options: createCollection options, fresh: empty it first (drop + create), doing,
  // spec: more marker fields}. Returns {created, uuid}; throws one line for a foreign collection.
  function claim(dbh, name, opts) {
    var o = opts || {};
    var s = inspect(dbh, name);
    if (s.owner.state === 'foreign') throw new Error(foreignMessage(s.target, s.owner.why, o.doing || 'write into'));
    if (s.owner.state === 'own' && !o.fresh) return { created: false, uuid: s.meta.uuid };
    if (s.owner.state === 'own') dropChecked(dbh, name, s.target);
    return { created: true, uuid: createOwned(dbh, name, o.options, o.kind, o.spec) };
  }

  // Whether name is the lab's (a stale marker is removed on the way).
  function owns(dbh, name) {
    return inspect(dbh, name).owner.state === 'own';
  }

  function dropChecked(dbh, name, target) {
    try {
      dbh.getCollection(name).drop();
    } catch (e) {
      throw new Error(target + ': could not drop it (' + errMessage(e) + ')');
    }
    dbh.getCollection(META).deleteOne({ _id: name });
  }

  // Every name absent or the lab's, checked before a run does any work; else one line naming each
  // foreign one, so a run does not stop at the first after minutes spent on the others.
  function assertAllOwned(dbh, names, doing) {
    var found = [];
    names.forEach(function (name) {
      var s = inspect(dbh, name);
      if (s.owner.state === 'foreign') found.push({ target: s.target, why: s.owner.why });
    });
    if (found.length) throw new Error(foreignManyMessage(found, doing));
  }

  // Drops a collection the lab owns and its marker; refuses a foreign one; nothing when absent.
  function dropOwned(dbh, name) {
    var s = inspect(dbh, name);
    if (s.owner.state === 'foreign') throw new Error(foreignMessage(s.target, s.owner.why, 'drop'));
    if (s.owner.state === 'own') dropChecked(dbh, name, s.target);
  }

  // After a failed generation: what the lab wrote goes, with its marker, and one line says so.
  function release(dbh, name, why, say) {
    var s = null;
    try {
      s = inspect(dbh, name);
      if (s.owner.state === 'own') dropChecked(dbh, name, s.target);
    } catch (e) {
      /* the server is gone: the marker still names the collection, a re-run resumes or drops it */
    }
    if (s && s.owner.state === 'own' && say) say('removed ' + s.target + ' and its lab marker: ' + why);
  }

  // A database is the lab's when the lab found it empty and marked it: the database marker
  // {_id: DB_MARK, uuid} names the UUID of the marker collection the lab created in it, so a
  // database dropped and created again by someone else is not the lab's any more. Only there
  // does the lab write what is not a collection of its own (stored functions in system.js).
  var DB_MARK = '#database';

  function dbOwnership(meta, markersInfo) {
    return !!(meta && markersInfo && meta.uuid && meta.uuid === identity(markersInfo));
  }

  function ownsDatabase(dbh) {
    return dbOwnership(dbh.getCollection(META).findOne({ _id: DB_MARK }), collInfo(dbh, META));
  }

  // Marks dbh as the lab's if it holds no collection at all; returns whether the lab owns it.
  function claimDatabase(dbh) {
    checkTarget(dbh.getName());
    if (ownsDatabase(dbh)) return true;
    if (dbh.getCollectionInfos({}, { nameOnly: true }).length) return false;
    var res;
    try {
      res = dbh.createCollection(META);
    } catch (e) {
      res = { ok: 0 };
    }
    if (res && res.ok === 0) return false;
    var id = identity(collInfo(dbh, META));
    if (!id) return false;
    dbh.getCollection(META).insertOne({ _id: DB_MARK, uuid: id, made: { at: new Date(), kind: 'database' } });
    return true;
  }

  // ---- what the lab leaves behind --------------------------------------------------------------
  // The marker collection is the lab's when the lab created it: the document MARKERS_MARK (or, in a
  // database the lab made, DB_MARK) names its UUID. One the user made (or forged markers into) is
  // never dropped, and no marker in it is removed but one naming a collection the lab just dropped.
  var MARKERS_MARK = '#markers';

  function isMark(id) {
    return id === DB_MARK || id === MARKERS_MARK;
  }

  // marks: the DB_MARK and MARKERS_MARK documents found (either may be null).
  function markersOwnership(marks, markersInfo) {
    return dbOwnership(marks[DB_MARK], markersInfo) || dbOwnership(marks[MARKERS_MARK], markersInfo);
  }

  // What the lab may remove from a database, decided from what it holds (no I/O):
  //   markers     every document of perflab_fixtures; infos: {name: listCollections entry} of
  //               every collection; markersInfo: perflab_fixtures' own entry (null when absent)
  //   before      null: everything the lab can prove it made (`mongo-perf-lab clean`); else
  //               {name: uuid} of what was the lab's when a run started: only what the run made
  //               since (a collection regenerated has a new UUID) is removed at its end
  // -> {drop: [names], kept: [names the lab's, made before], stale: [marker ids], foreign: [{name,
  //     why}] (markers that name another collection than the one there), unmarked: [names no
  //     marker names], markersOwn, dropMarkers: whether perflab_fixtures goes too, afterwards}
  function cleanPlan(markers, infos, markersInfo, before) {
    var marks = {};
    var plan = { drop: [], kept: [], stale: [], foreign: [], unmarked: [], markersOwn: false, dropMarkers: false };
    var marked = {};
    markers.forEach(function (m) {
      if (isMark(m._id)) {
        marks[m._id] = m;
        return;
      }
      marked[m._id] = true;
      var info = Object.prototype.hasOwnProperty.call(infos, m._id) ? infos[m._id] : null;
      var o = ownership(m, info);
      if (o.state === 'own') {
        var existed = before && before[m._id] === identity(info);
        (existed ? plan.kept : plan.drop).push(m._id);
      } else if (o.state === 'absent') plan.stale.push(m._id);
      else plan.foreign.push({ name: m._id, why: o.why });
    });
    Object.keys(infos).forEach(function (name) {
      if (name !== META && !/^system\./.test(name) && !marked[name]) plan.unmarked.push(name);
    });
    plan.markersOwn = !!markersInfo && markersOwnership(marks, markersInfo);
    var madeNow = !before || before[META] !== identity(markersInfo);
    // The lab's collections kept keep their markers; applyPlan checks again that no other marker
    // is left in it (one written meanwhile) before it drops the marker collection.
    plan.dropMarkers = plan.markersOwn && madeNow && !plan.kept.length;
    return plan;
  }

  // The connection string of a shell's connection without user, password, path or options (what a
  // printed command may show); a placeholder where the shell does not say (the 4.2 shell).
  function shellUri(dbh) {
    var u;
    try {
      u = dbh.getMongo().getURI();
    } catch (e) {
      u = null;
    }
    return commandUri(u);
  }

  // A connection string as a printed command may show it: hosts kept, a password never.
  function commandUri(u) {
    var m = /^(mongodb(?:\+srv)?:\/\/)([^@/]*@)?([^/?]+)/.exec(String(u || ''));
    if (!m) return '<your connection string>';
    return m[1] + (m[2] ? '<user>:<password>@' : '') + m[3] + '/';
  }

  // What the lab left in a database, with the command that removes it: one message, broken between
  // words within 100 columns, the command alone on its last line (to copy as it is). self: how to
  // run the lab's CLI from where the user is (Node: lib/cli/self-command.js).
  function leftLines(dbName, names, uri, why, self, width) {
    var head = 'left in ' + dbName + ' (' + why + "): the lab's " + names.join(', ') + '; remove them with:';
    return wrapWords(head, width || 100).concat(cleanCommandLines(self || shellSelfCommand(), uri, dbName, width));
  }

  // The clean command, indented; a long one (a deep checkout) continued on a second line with a
  // shell's backslash, so that both lines pasted together still run it.
  function cleanCommandLines(self, uri, dbName, width) {
    var args = '--uri ' + uri + ' --db ' + dbName;
    var one = '  ' + self + ' clean ' + args;
    return one.length <= (width || 100) ? [one] : ['  ' + self + ' clean \\', '    ' + args];
  }

  // text broken between words into lines of at most width columns, the later ones indented by two.
  function wrapWords(text, width) {
    var out = [];
    var line = '';
    String(text)
      .split(' ')
      .forEach(function (word) {
        var next = line ? line + ' ' + word : word;
        if (next.length > width && line) {
          out.push(line);
          line = '  ' + word;
        } else line = next;
      });
    if (line) out.push(line);
    return out;
  }

  // mongosh defines __dirname while it loads a file, not when its functions run later: read it now.
  var LOADED_FROM = typeof __dirname === 'string' ? String(__dirname) : '';

  function shellSelfCommand() {
    var dir = LOADED_FROM;
    var m = /^(.*)[/\\]scripts[/\\]lib[/\\]?$/.exec(dir);
    if (!m) return 'mongo-perf-lab';
    var bin = m[1] + '/bin/mongo-perf-lab.js';
    return 'node ' + (/^[A-Za-z0-9_./:=@%+-]+$/.test(bin) ? bin : "'" + bin.replace(/'/g, "'\\''") + "'");
  }

  // Creates the marker collection (before the first marker written into it) and marks it as the
  // lab's, so what the lab leaves can later be removed whole. One that exists is left as it is.
  function claimMarkers(dbh) {
    if (collInfo(dbh, META)) return;
    var res;
    try {
      res = dbh.createCollection(META);
    } catch (e) {
      res = { ok: 0 };
    }
    if (res && res.ok === 0) return; // appeared meanwhile: someone else's, proves nothing
    var id = identity(collInfo(dbh, META));
    if (id) dbh.getCollection(META).insertOne({ _id: MARKERS_MARK, uuid: id, made: { at: new Date() } });
  }

  function shellInfos(dbh) {
    var infos = {};
    dbh.getCollectionInfos({}).forEach(function (i) {
      infos[i.name] = i;
    });
    Object.keys(infos).forEach(function (name) {
      if (infos[name].type === 'timeseries') infos[name] = collInfo(dbh, name);
    });
    return infos;
  }

  function shellPlan(dbh, before) {
    var infos = shellInfos(dbh);
    var markersInfo = infos[META] || null;
    var markers = markersInfo ? dbh.getCollection(META).find({}).toArray() : [];
    return cleanPlan(markers, infos, markersInfo, before);
  }

  // {name: uuid} of what is the lab's in dbh now (its collections, and the marker collection if
  // the lab made it): what a run's end compares against.
  function labSnapshot(dbh) {
    var infos = shellInfos(dbh);
    var out = {};
    var p = shellPlan(dbh, null);
    p.drop.forEach(function (name) {
      out[name] = identity(infos[name]);
    });
    if (p.markersOwn) out[META] = identity(infos[META]);
    return out;
  }

  // Carries out a plan: its collections dropped (each proven again by UUID just before), then the
  // marker collection when the plan says so. prune (`clean` only, never a run's end): markers that
  // grant nothing are removed too, from a marker collection the lab made. Returns the names dropped.
  function applyPlan(dbh, plan, prune) {
    var dropped = [];
    plan.drop.forEach(function (name) {
      var s = inspect(dbh, name);
      if (s.owner.state !== 'own') return;
      dropChecked(dbh, name, s.target);
      dropped.push(name);
    });
    var useless = plan.stale.concat(
      plan.foreign.map(function (f) {
        return f.name;
      })
    );
    if (prune && plan.markersOwn && useless.length) dbh.getCollection(META).deleteMany({ _id: { $in: useless } });
    if (plan.dropMarkers) {
      var left = dbh
        .getCollection(META)
        .find({})
        .toArray()
        .filter(function (m) {
          return !isMark(m._id) && plan.stale.indexOf(m._id) < 0;
        });
      if (!left.length) {
        dbh.getCollection(META).drop();
        dropped.push(META);
      }
    }
    return dropped;
  }

  // What a run's end compares against, read (only read) before the run writes anything: the lab's
  // collections then ({lab: labSnapshot}), and whether the database had a system.views then (the
  // server makes one with the first view or time-series collection, and keeps it when they go).
  function runStart(dbh) {
    return { lab: labSnapshot(dbh), views: !!collInfo(dbh, 'system.views') };
  }

  // system.views when the run's time-series collections made it and left it empty.
  function dropLeftViews(dbh, start) {
    if (start.views || !collInfo(dbh, 'system.views')) return false;
    if (dbh.getCollection('system.views').countDocuments({}) > 0) return false;
    dbh.getCollection('system.views').drop();
    return true;
  }

  // The end of a drop-in run in dbh, `start` its runStart. In a database the lab made, everything
  // stays for the next run (one line names it). Elsewhere what the run made is dropped unless
  // opts.keep (the KEEP parameter), and what of the lab's remains is named in one line with the
  // command that removes it. Never throws: a failed clean-up is one line too.
  function finishRun(dbh, start, opts) {
    var o = opts || {};
    var say = o.say || (typeof print === 'function' ? print : function () {});
    var name = dbh.getName();
    try {
      if (ownsDatabase(dbh)) {
        var all = labSnapshot(dbh);
        leftLines(name, Object.keys(all), shellUri(dbh), 'a database the lab made, kept for the next run').forEach(
          function (l) {
            say(l);
          }
        );
        return { dropped: [], left: Object.keys(all) };
      }
      var dropped = o.keep ? [] : applyPlan(dbh, shellPlan(dbh, start.lab));
      if (!o.keep && dropLeftViews(dbh, start)) dropped.push('system.views');
      var left = Object.keys(labSnapshot(dbh));
      if (left.length) {
        var why = o.keep ? 'KEEP = true' : 'made by an earlier run';
        leftLines(name, left, shellUri(dbh), why).forEach(function (l) {
          say(l);
        });
      } else if (dropped.length) {
        wrapWords(
          'dropped what this run made in ' + name + ': ' + dropped.join(', ') + ' (KEEP = true keeps it)',
          100
        ).forEach(function (l) {
          say(l);
        });
      }
      return { dropped: dropped, left: left };
    } catch (e) {
      wrapWords('could not remove what this run made in ' + name + ' (' + errMessage(e) + '); remove it with:', 100)
        .concat(cleanCommandLines(shellSelfCommand(), shellUri(dbh), name))
        .forEach(function (l) {
          say(l);
        });
      return { dropped: [], left: null, error: errMessage(e) };
    }
  }

  // Shell-side generator. spec = {fixture, n, seed, ...}; makeDoc(next, i) must return documents
  // with _id i (numbers 0..n-1), as LabGen's generators do, or another _id made from i alone.
  // opts: {generate: bool (may create a collection that does not exist yet: the scripts' GENERATE),
  //        useForeign: bool (return {own: false} for a foreign collection instead of refusing it),
  //        options: createCollection options, batchSize (10000), progress: fn(line) (default print), quiet}
  // Returns {action, generated, own, count, inserted, duplicates, ms}.
  function ensure(dbh, collName, spec, makeDoc, opts) {
    opts = opts || {};
    var say = opts.progress || (typeof print === 'function' ? print : function () {});
    var s = inspect(dbh, collName);
    var target = s.target;
    var count = s.count;
    var d = decide(s.marker, count, spec, s.info);
    if (d.action === 'reuse')
      return { action: 'reuse', generated: false, own: true, count: count, inserted: 0, duplicates: 0, ms: 0 };
    if (d.action === 'foreign') {
      if (opts.useForeign) {
        say('note: ' + target + ' ' + d.why + ': using its ' + count + ' documents as they are (read only)');
        return { action: 'foreign', generated: false, own: false, count: count, inserted: 0, duplicates: 0, ms: 0 };
      }
      throw new Error(foreignMessage(target, d.why, 'fill'));
    }
    if (d.action === 'create' && !opts.generate) {
      throw new Error(
        target +
          ' does not exist; the lab generates ' +
          spec.n +
          ' documents there only when asked: ' +
          'run again with GENERATE = true (mongosh --eval "var GENERATE = true" ...) or name an existing collection'
      );
    }
    if (d.action === 'regenerate') {
      say('note: ' + target + ' ' + d.why + ': regenerating');
      dropChecked(dbh, collName, target);
    }
    if (d.action === 'resume') dbh.getCollection(META).updateOne({ _id: collName }, { $set: { complete: false } });
    else createOwned(dbh, collName, opts.options, 'fixture', spec);
    // Assigned before it is returned: mongosh's async rewriting leaves `return f()` unawaited
    // inside a try, so its failure would escape the catch.
    var out;
    try {
      out = fill(dbh, collName, spec, makeDoc, opts, d.action, say);
    } catch (e) {
      if (!e.resumable) release(dbh, collName, errMessage(e), say);
      throw e;
    }
    return out;
  }

  // Inserts the spec's documents into a collection the lab owns, verifies, marks it complete.
  function fill(dbh, collName, spec, makeDoc, opts, action, say) {
    var target = dbh.getName() + '.' + collName;
    var coll = dbh.getCollection(collName);
    var next = LabGen.rng(spec.seed);
    var size = opts.batchSize || 10000;
    var batch = [];
    var t0 = Date.now();
    var inserted = 0;
    var duplicates = 0;
    var step = Math.max(1, Math.floor(spec.n / 10));
    var lo = null;
    var hi = null;
    var others = false;
    for (var i = 0; i < spec.n; i++) {
      var doc = makeDoc(next, i);
      if (doc._id === undefined || doc._id === null)
        throw new Error('LabFixture.ensure: generated documents need a deterministic _id (got none)');
      if (typeof doc._id !== 'number') others = true;
      if (typeof doc._id === 'number' && (lo === null || doc._id < lo)) lo = doc._id;
      if (typeof doc._id === 'number' && (hi === null || doc._id > hi)) hi = doc._id;
      batch.push(doc);
      if (batch.length === size || i === spec.n - 1) {
        var r = insertChecked(coll, batch, target);
        inserted += r.inserted;
        duplicates += r.duplicates;
        batch = [];
      }
      if (!opts.quiet && (i + 1) % step === 0 && spec.n >= 100000) say('  generated ' + (i + 1) + ' / ' + spec.n);
    }
    // Verify against the server before marking complete: every key this load wrote must be there.
    // Non-numeric _ids (the time-series ObjectIds) have no range to count: the whole collection, the lab's own.
    var stored = spec.n ? coll.countDocuments(others ? {} : { _id: { $gte: lo, $lte: hi } }) : 0;
    if (stored !== spec.n) {
      throw new Error(
        target + ': the server holds ' + stored + ' of the ' + spec.n + ' generated documents after the load'
      );
    }
    dbh.getCollection(META).updateOne({ _id: collName }, { $set: { complete: true, loadMs: Date.now() - t0 } });
    if (!opts.quiet)
      say(
        'generated ' +
          spec.n +
          ' documents in ' +
          (Date.now() - t0) +
          ' ms (seed ' +
          spec.seed +
          ', new ' +
          inserted +
          ', already there ' +
          duplicates +
          ')'
      );
    return {
      action: action,
      generated: true,
      own: true,
      count: stored,
      inserted: inserted,
      duplicates: duplicates,
      ms: Date.now() - t0,
    };
  }

  function insertChecked(coll, batch, target) {
    try {
      var res = coll.insertMany(batch, { ordered: false });
      var n = res && typeof res.insertedCount === 'number' ? res.insertedCount : batch.length;
      if (res && res.insertedIds && typeof res.insertedCount !== 'number') n = Object.keys(res.insertedIds).length;
      return { inserted: n, duplicates: batch.length - n };
    } catch (e) {
      var o = insertOutcome(e, batch.length);
      if (!o) {
        var lost = new Error(
          target + ': insert failed (' + errMessage(e) + '); nothing marked complete: run again to resume'
        );
        lost.resumable = true;
        throw lost;
      }
      if (o.other.length) {
        var first = o.other[0];
        var idx = first.index !== undefined ? first.index : first.err && first.err.index;
        throw new Error(
          target +
            ': the server refused ' +
            o.other.length +
            ' document(s), the first (_id ' +
            JSON.stringify(idx !== undefined && batch[idx] ? batch[idx]._id : '?') +
            '): ' +
            errMessage(first) +
            '; the load stopped'
        );
      }
      return { inserted: o.inserted, duplicates: o.duplicates };
    }
  }

  return {
    META: META,
    GENERATOR_VERSION: GENERATOR_VERSION,
    checkTarget: checkTarget,
    sameSpec: sameSpec,
    uuidHex: uuidHex,
    identity: identity,
    ownership: ownership,
    decide: decide,
    marker: marker,
    foreignMessage: foreignMessage,
    foreignManyMessage: foreignManyMessage,
    assertAllOwned: assertAllOwned,
    inspect: inspect,
    claim: claim,
    owns: owns,
    dropOwned: dropOwned,
    release: release,
    DB_MARK: DB_MARK,
    dbOwnership: dbOwnership,
    ownsDatabase: ownsDatabase,
    claimDatabase: claimDatabase,
    MARKERS_MARK: MARKERS_MARK,
    isMark: isMark,
    markersOwnership: markersOwnership,
    cleanPlan: cleanPlan,
    leftLines: leftLines,
    cleanCommandLines: cleanCommandLines,
    wrapWords: wrapWords,
    commandUri: commandUri,
    claimMarkers: claimMarkers,
    labSnapshot: labSnapshot,
    applyPlan: applyPlan,
    runStart: runStart,
    finishRun: finishRun,
    ensure: ensure,
    insertOutcome: insertOutcome,
    errMessage: errMessage,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabFixture;

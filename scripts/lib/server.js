// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// The server a script measures: version, topology, storage and query engine, cache.

var LabServer = (function () {
  // ---- server description -------------------------------------------------------------------
  function serverInfo(dbh) {
    var admin = dbh.getSiblingDB('admin');
    var build = admin.runCommand({ buildInfo: 1 });
    var status = admin.runCommand({ serverStatus: 1 });
    // 7.0+ says which engine may run queries in internalQueryFrameworkControl; 6.0 only has the
    // internalQueryForceClassicEngine switch. The result is assigned inside the try because
    // mongosh's runCommand throws when the parameter does not exist.
    var framework = null;
    try {
      var p = admin.runCommand({ getParameter: 1, internalQueryFrameworkControl: 1 });
      framework = p.internalQueryFrameworkControl;
    } catch (e) {
      try {
        var q = admin.runCommand({ getParameter: 1, internalQueryForceClassicEngine: 1 });
        framework = q.internalQueryForceClassicEngine ? 'forceClassicEngine' : 'trySbeEngine';
      } catch (e2) {
        /* before 5.1: classic only */
      }
    }
    var topology = 'standalone';
    try {
      var hello = admin.runCommand({ hello: 1 });
      topology = hello.msg === 'isdbgrid' ? 'sharded' : hello.setName ? 'replicaSet' : 'standalone';
    } catch (e3) {
      /* older servers: isMaster */
    }
    var cache = status.wiredTiger ? status.wiredTiger.cache['maximum bytes configured'] : null;
    return {
      version: build.version,
      storageEngine: status.storageEngine ? status.storageEngine.name : 'unknown',
      queryFramework: framework,
      cacheBytes: cache,
      topology: topology,
      host: status.host,
    };
  }

  function versionAtLeast(version, min) {
    if (!min) return true;
    var a = String(version).split('.').map(Number);
    var b = String(min).split('.').map(Number);
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var x = a[i] || 0;
      var y = b[i] || 0;
      if (x !== y) return x > y;
    }
    return true;
  }

  function headerLine(info) {
    return (
      'server ' +
      info.version +
      ' | ' +
      info.topology +
      ' | storage ' +
      info.storageEngine +
      ' | query framework ' +
      (info.queryFramework || 'classic') +
      (info.cacheBytes ? ' | cache ' + (info.cacheBytes / 1073741824).toFixed(2) + ' GB' : '')
    );
  }

  function header(title, dbh, extra) {
    var info = serverInfo(dbh);
    print('== ' + title + ' ==');
    // Two lines, not one: with the study's own details it ran past 100 columns.
    print(headerLine(info));
    if (extra) print(extra);
    return info;
  }

  return {
    serverInfo: serverInfo,
    versionAtLeast: versionAtLeast,
    headerLine: headerLine,
    header: header,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabServer;

'use strict';
// The counters study's state for one run: the Node variants' targets (schema -> collection and its
// reads), their writers' connections (closed after the day), and how many simulated minutes of
// each hour each schema has written (the harness calls a variant once per minute).
const { studyState } = require('../../core/study-state');

module.exports = studyState(() => ({ targets: new Map(), writers: null, cursor: new Map() }));

// @ts-check
'use strict';
// The shapes the core passes around, as JSDoc types for the editor and `tsc --checkJs` (no runtime
// code). A file that uses them says `// @ts-check` and imports a type by
//   /** @typedef {import('./types').StudyContext} StudyContext */
// What each field means: docs/contract.md (the study entry, the context) and
// docs/result-format.schema.json (the records).
// Checked with the TypeScript that mongosh's runtime already installs (no dependency of the lab's):
//   npx tsc --noEmit --allowJs --target es2022 --module commonjs --moduleResolution node \
//     --skipLibCheck --types node --maxNodeModuleJsDepth 0 lib/core/*.js
// (--allowJs without --checkJs: only the files that say `// @ts-check` are checked.)

/** @typedef {Record<string, number|string|boolean>} Params a study's parameters, NAME -> value */

/** @typedef {Record<string, any>} AxisPoint one axis point, e.g. {batch: 1000}; {} when the study has one */

/**
 * A skipped variant's typed state (scripts/lib/plan.js).
 * @typedef {object} SkippedState
 * @property {'version'|'not-here'|'unavailable'} code
 * @property {string} why
 */

/**
 * A result record: one variant at one axis point (docs/result-format.schema.json, `result`).
 * @typedef {object} ResultRecord
 * @property {'result'} type
 * @property {string} study
 * @property {string} variant
 * @property {string} [what]
 * @property {'server'|'node'} [where]
 * @property {AxisPoint} axis
 * @property {string} unit
 * @property {number[]} times
 * @property {number[]} [warmup]
 * @property {number} runs
 * @property {boolean} capped
 * @property {number} mean
 * @property {number} sd
 * @property {number} median
 * @property {number} min
 * @property {number} max
 * @property {object|null} ratio
 * @property {object|null} plan
 * @property {boolean|null} agrees
 * @property {any} [answer]
 * @property {number} [overheadMs]
 * @property {object} [extra]
 * @property {object} [server]
 * @property {{start: number, end: number, cores: number, cpuWait?: number}} [loadavg]
 * @property {object} [latency]
 * @property {string[]} [warnings]
 * @property {'fixed'|'decided'|'cap'|'budget'} [stop]
 * @property {{level: number, looks: number, rule: string}} [sequential]
 * @property {SkippedState} [skipped]
 */

/**
 * Any record of a result file: a result, a skipped variant, a measure, the environment, a plan.
 * @typedef {ResultRecord | (Record<string, any> & {type: string})} LabRecord
 */

/**
 * A variant of a study's Node part (docs/contract.md, "The Node part").
 * @typedef {object} NodeVariant
 * @property {string} name
 * @property {string} what
 * @property {(ctx: StudyContext, p: Params, point: AxisPoint) => Promise<any>} run
 * @property {'node'|'server'} [where]
 * @property {string} [minVersion]
 * @property {(p: Params, point: AxisPoint, ctx: StudyContext) => boolean|string} [able] true: it runs at
 *   this point; false: it cannot answer here; a text: what it lacks here (a peer, a server the lab started)
 * @property {(ctx: StudyContext, p: Params, point: AxisPoint) => Promise<object>} [explain]
 */

/**
 * A study of the registry: defineStudy()'s definition (lib/core/registry.js), plus the title and
 * source article read from its script, or a study of the user's own (studyFromFile).
 * @typedef {object} StudyEntry
 * @property {string} name
 * @property {string} script its declaration under scripts/ (or an absolute path: a study of your own)
 * @property {{tiny: Params, quick: Params, seed: Params}} profiles
 * @property {string} expected
 * @property {string} seedExpected
 * @property {string} [title]
 * @property {{id: string, title?: string}} [source] the source article (its string form is its id)
 * @property {boolean} [own] a study of the user's own declaration file
 * @property {Record<string, string>} [cli]
 * @property {string} [writeUp]
 * @property {(ctx: StudyContext, p: Params) => Promise<object>} [load]
 * @property {(p: Params) => string[]} [derived]
 * @property {(p: Params, point: AxisPoint, ctx: StudyContext) => any} [oracle]
 * @property {(a: any, b: any) => boolean} [same]
 * @property {(ctx: StudyContext, p: Params, scriptPoints: AxisPoint[]) => AxisPoint[]} [points]
 * @property {(ctx: StudyContext, p: Params, point: AxisPoint) => Promise<void>} [beforePoint]
 * @property {(ctx: StudyContext, p: Params, point: AxisPoint) => Promise<LabRecord[]>} [measures]
 * @property {(ctx: StudyContext, p: Params, records: LabRecord[]) => Promise<LabRecord[]>} [after]
 * @property {Function} [headline]
 * @property {Function} [pointTables]
 * @property {NodeVariant[]} [variants]
 * @property {object[]} [claims]
 * @property {object[]} [practices]
 * @property {object[]} [tables]
 * @property {object[]} [charts]
 * @property {object} [helpers]
 * @property {string[]} [peers]
 * @property {() => object} [offline] the declaration's lab.node evaluated in Node (no server)
 * @property {boolean} [sameDeclared]
 */

/**
 * What lab.node.describe returns: the declaration as data.
 * @typedef {object} StudyDescription
 * @property {string} name
 * @property {string} title
 * @property {object|null} source
 * @property {string} [baseline]
 * @property {boolean} warmOnce
 * @property {string} unit
 * @property {Record<string, {kind: string, def: any, what?: string, empty?: boolean}>} params
 * @property {{name: string, what: string, minVersion: string|null}[]} variants
 */

/**
 * What lab.node.configure returns.
 * @typedef {object} ShellConfiguration
 * @property {Params} params every parameter's value (defaults filled in)
 * @property {string[]} variants the chosen shell variants
 */

/**
 * The context of one study's run (lib/core/run-study.js openContext and reopener): what a study's
 * Node part receives as `ctx`.
 * @typedef {object} StudyContext
 * @property {object} server the server (lib/infra/server.js getServer): uri, version, embedded, ...
 * @property {import('mongodb').MongoClient} client
 * @property {import('mongodb').Db} db the study's database
 * @property {string} dbName
 * @property {(text: string) => void} echo human-readable output
 * @property {(text: string) => void} log progress lines
 * @property {boolean} [progress]
 * @property {StudyEntry} entry
 * @property {import('./shell-runner').ShellSession|null} session the study's mongosh session
 * @property {import('./shell-bridge').ShellBridge} [shell] its script's functions, by name
 * @property {StudyDescription} [desc]
 * @property {ShellConfiguration} [cfg]
 * @property {Params} [p] the configured parameters (cfg.params)
 * @property {object} [fixture]
 * @property {string} [pointLabel]
 * @property {number} [deadline] --budget: no new round starts after this Date.now() value
 * @property {boolean} [serverStatus] false once serverStatus was refused
 * @property {Array<() => Promise<void>>} cleanups what the study started for itself, undone at the end
 * @property {(text: string) => void} [note] a note for people, kept in the result file
 * @property {() => Promise<void>} [reopen] a new session (after a server restart)
 */

module.exports = {};

'use strict';
// How a bench script ends when it runs as a command: main(argv) resolves its exit code; an error is
// one line, a usage error pointing at --help, and exit 2 (no stack trace).
function runMain(name, main) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      const usage = String(e.code || '').startsWith('ERR_PARSE_ARGS');
      process.stderr.write(`${name}: ${usage ? `${e.message.split('. ')[0]}: see --help` : e.message}\n`);
      process.exitCode = 2;
    },
  );
}

module.exports = { runMain };

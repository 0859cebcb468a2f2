'use strict';
// The kinds of entry in a command's option table (parseCommand in ./options.js parses them,
// optionLines prints them in the help): an option that takes a value, and a flag.

/** `--name ARG`: an option that takes a value; `text` is its help. */
const valueOption = (arg, text) => ({ type: 'string', arg, text });

/** `--name`: an option that takes no value; `text` is its help. */
const flag = (text) => ({ type: 'boolean', text });

module.exports = { valueOption, flag };

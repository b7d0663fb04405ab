// V8 flags a `booklink` command runs with, shared by bin/booklink.js and the import benchmarks.
//
// Imports keep V8's young generation small: their garbage comes a batch of rows at a time and dies
// young, and the default semi-spaces (16 MB) held 57 MB more peak memory at 1M editions for no speed
// (bench/README). The server keeps the defaults: its allocations are per request.
const IMPORT_FLAGS = ['--max-semi-space-size=2'];

/** @param {string | undefined} command @returns {string[]} */
export function nodeFlags(command) {
  return command === 'import' || command === 'import-openlibrary' ? IMPORT_FLAGS : [];
}

// V8 flags a `booklink` command runs with, shared by bin/booklink.js and the import benchmarks.
//
// Imports bound V8's old generation. Without a bound V8 takes its limit from the machine's memory
// (4,144 MB here), and from 2 GB up it lets the old generation grow to 4 times what the last full
// collection kept; below 2 GB the factor scales down towards 1.3 (1,024 MB: about 1.6). An import keeps
// 30-70 MB alive, but moments with more in flight (a PostgreSQL batch written while the next is joined)
// let the heap reach 175 MB before a collection, and peak RSS vary from 270 to 440 MB at 1M editions
// and from 330 to 602 MB at 10M. With the bound the heap stayed under 80 MB at 1M. Its extra full
// collections are paid for by 16 MB semi-spaces (V8's 64-bit default, stated here), where rows die
// young instead of being copied and promoted: 1M editions into SQLite take the same time as before,
// and 2 MB semi-spaces with the bound took 12-15 % longer. The server keeps V8's defaults: its
// allocations are per request.
const IMPORT_FLAGS = ['--max-old-space-size=1024', '--max-semi-space-size=16'];

/** @param {string | undefined} command @returns {string[]} */
export function nodeFlags(command) {
  return command === 'import' || command === 'import-openlibrary' ? IMPORT_FLAGS : [];
}

/** V8 flags a `booklink` command runs with (see node-flags.js). */
export function nodeFlags(command: string | undefined): string[];

/**
 * Where a `node --cpu-prof` profile spends its time: `npx tsx bench/lib/profile-summary.ts <file.cpuprofile> [--top 25]`.
 * Prints self time by function and by package (or by src/ file), so a missed goal can be explained.
 */
import { readFileSync } from 'node:fs';
import { option } from './harness.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [--top N]');
  process.exit(2);
}
const top = option('top', 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** Microseconds of self time per profile node, from the sample stream. */
const selfTime = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) {
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfTime.values()].reduce((sum, value) => sum + value, 0);

function area(url: string): string {
  if (!url) return '(native/vm)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return url;
  const src = /\/((?:src|bench|test)\/.*)$/.exec(url)?.[1];
  return src ?? url;
}

function table(title: string, key: (node: ProfileNode) => string): void {
  const sums = new Map<string, number>();
  for (const node of profile.nodes) {
    const time = selfTime.get(node.id) ?? 0;
    if (time > 0) sums.set(key(node), (sums.get(key(node)) ?? 0) + time);
  }
  console.log(`\n${title}`);
  for (const [name, time] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((time / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
}

console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
table('self time by area', (node) => area(node.callFrame.url));
table('self time by function', (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'}  ${area(url)}:${lineNumber + 1}`;
});

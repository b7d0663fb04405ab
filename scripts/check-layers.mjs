#!/usr/bin/env node
// Fails when an import in src/ points up the layers, when Kysely is imported outside src/store, when
// modules import each other in a circle, or when the HTTP layer reaches the database itself. Part of
// `npm run lint`.
//
// Layers, lowest first: domain → store → catalog → services → http → cli and the entry points
// (src/cli.ts, src/server.ts). A module may import its own layer or any layer below it. The layer of a
// file is the top folder under src/, so any subfolder (routes/pages, routes/admin/...) is covered.
// src/config.ts (with its parts in src/config/) and src/paths.ts are leaves every layer may read; they
// import nothing else from src/.
//
// One exception to "any layer below": src/http/ never imports src/store/ (not even a type) and never
// touches `services.store` or a `dbOf` helper. Routes reach data through the use cases built in
// src/services/container.ts, which hands on the store types the views need.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(ROOT, 'src');

const LAYERS = ['domain', 'store', 'catalog', 'services', 'http', 'cli'];
const STORE = join(SRC, 'store');
const LEAVES = new Set(['config.ts', 'paths.ts']);
const ENTRY_POINTS = new Set(['cli.ts', 'server.ts']);

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Rank of a file's layer: -1 for the leaves, LAYERS.length for the entry points. */
function layerOf(file) {
  const [top, ...rest] = relative(SRC, file).split(sep);
  if (rest.length === 0) {
    if (LEAVES.has(top)) return { name: top, rank: -1 };
    if (ENTRY_POINTS.has(top)) return { name: top, rank: LAYERS.length };
    return { name: top, rank: LAYERS.length };
  }
  if (top === 'config') return { name: 'config.ts', rank: -1 };
  const rank = LAYERS.indexOf(top);
  if (rank < 0)
    throw new Error(`${relative(ROOT, file)}: src/${top}/ is not a known layer (${LAYERS.join(', ')})`);
  return { name: top, rank };
}

/** The specifiers a file imports or re-exports (static and dynamic), as TypeScript itself reads them. */
function importsOf(file) {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

/**
 * Where an http/ file reaches the database around the services: `services.store` (also as
 * `options.services.store` or destructured from `services`) and any `dbOf`.
 */
function storeReachesOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const isServices = (node) => /(^|\.)services$/.test(node.getText(source).replace(/\s+/g, ''));
  const at = (node) => `line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node) => {
    if (ts.isIdentifier(node) && node.text === 'dbOf') found.push(`${at(node)}: dbOf`);
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'store' && isServices(node.expression))
      found.push(`${at(node)}: ${node.getText(source)}`);
    if (ts.isElementAccessExpression(node) && isServices(node.expression)) {
      const key = node.argumentExpression;
      if (ts.isStringLiteralLike(key) && key.text === 'store')
        found.push(`${at(node)}: ${node.getText(source)}`);
    }
    if (ts.isVariableDeclaration(node) && node.initializer && ts.isObjectBindingPattern(node.name)) {
      if (isServices(node.initializer)) {
        for (const element of node.name.elements) {
          const key = element.propertyName ?? element.name;
          if (ts.isIdentifier(key) && key.text === 'store') found.push(`${at(node)}: { store } = services`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveLocal(from, specifier) {
  const target = resolve(dirname(from), specifier);
  return target.endsWith('.js') ? `${target.slice(0, -3)}.ts` : target;
}

const problems = [];
const graph = new Map();
for (const file of sourceFiles(SRC)) {
  const name = relative(ROOT, file);
  const layer = layerOf(file);
  const edges = [];
  for (const specifier of importsOf(file)) {
    if (specifier === 'kysely' || specifier.startsWith('kysely/')) {
      if (layer.name !== 'store') {
        problems.push(
          `${name}: imports '${specifier}' outside src/store (queries and types belong in src/store)`,
        );
      }
      continue;
    }
    if (!specifier.startsWith('.')) continue;
    const target = resolveLocal(file, specifier);
    if (!target.startsWith(SRC + sep)) continue;
    edges.push(target);
    if (layer.name === 'http' && target.startsWith(STORE + sep)) {
      problems.push(
        `${name}: imports ${relative(ROOT, target)} (http/ reaches data through Services, never src/store)`,
      );
    }
    const targetLayer = layerOf(target);
    if (layer.rank === -1 && targetLayer.rank !== -1) {
      problems.push(`${name}: a leaf module imports ${relative(ROOT, target)}`);
    } else if (targetLayer.rank > layer.rank) {
      problems.push(
        `${name}: upward import of ${relative(ROOT, target)} (${layer.name} may not import ${targetLayer.name})`,
      );
    }
  }
  if (layer.name === 'http') {
    for (const reach of storeReachesOf(file)) {
      problems.push(`${name}: ${reach} (routes call the services in Services, never the store)`);
    }
  }
  graph.set(file, edges);
}

// Circles (Tarjan's strongly connected components): a group of modules that import each other.
let index = 0;
const stack = [];
const state = new Map();
function visit(node) {
  const entry = { index, low: index, onStack: true };
  index += 1;
  state.set(node, entry);
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (!graph.has(next)) continue;
    const seen = state.get(next);
    if (!seen) {
      visit(next);
      entry.low = Math.min(entry.low, state.get(next).low);
    } else if (seen.onStack) {
      entry.low = Math.min(entry.low, seen.index);
    }
  }
  if (entry.low === entry.index) {
    const group = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      group.push(relative(ROOT, member));
    } while (member !== node);
    if (group.length > 1) problems.push(`import circle: ${group.sort().join(' ↔ ')}`);
  }
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (problems.length > 0) {
  console.error(`check-layers: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`check-layers: ${graph.size} modules, imports point down, no circles`);

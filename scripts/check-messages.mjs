#!/usr/bin/env node
// The reader pages' message catalogues and views (issue 44), checked by `npm run lint`:
// 1. every language has exactly the English catalogue's keys;
// 2. every message parses as ICU MessageFormat, with the same arguments and tags as the English one;
// 3. no view (src/http/views/**, admin/ excepted) holds reader-visible text outside the catalogue:
//    text between tags in an html`` template, and title/alt/placeholder/aria-label/content values.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';

const ROOT = new URL('..', import.meta.url).pathname;
const MESSAGES = join(ROOT, 'src/http/i18n/messages');
const VIEWS = join(ROOT, 'src/http/views');
const problems = [];

/** Text that is no language: separators, arrows, punctuation, digits. Kept short on purpose. */
const ALLOWED = new Set(['·', '↓', '…', '?', '—', '–', '|', '×', '✓']);

/** The argument names and tag names a parsed message uses, e.g. `arg:count`, `tag:link`. */
function namesIn(elements, into = new Set()) {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      into.add(`tag:${element.value}`);
      namesIn(element.children, into);
      continue;
    }
    into.add(`arg:${element.value}`);
    if (element.options) {
      for (const option of Object.values(element.options)) namesIn(option.value, into);
    }
  }
  return into;
}

function parsed(language, key, message) {
  try {
    return namesIn(parse(message));
  } catch (error) {
    problems.push(`${language}.json: "${key}" does not parse: ${error.message}`);
    return null;
  }
}

const languages = readdirSync(MESSAGES)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -5));
const catalogues = Object.fromEntries(
  languages.map((language) => [
    language,
    JSON.parse(readFileSync(join(MESSAGES, `${language}.json`), 'utf8')),
  ]),
);
const english = catalogues.en;
if (!english) problems.push('messages/en.json is missing');
for (const expected of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja']) {
  if (!catalogues[expected]) problems.push(`messages/${expected}.json is missing`);
}
const englishNames = {};
for (const [key, message] of Object.entries(english ?? {})) englishNames[key] = parsed('en', key, message);
for (const language of languages.filter((name) => name !== 'en')) {
  const catalogue = catalogues[language];
  for (const key of Object.keys(english ?? {})) {
    if (typeof catalogue[key] !== 'string') {
      problems.push(`${language}.json: missing "${key}"`);
      continue;
    }
    const names = parsed(language, key, catalogue[key]);
    const want = englishNames[key];
    if (names && want && [...names].sort().join() !== [...want].sort().join()) {
      problems.push(
        `${language}.json: "${key}" uses ${[...names].join(', ') || 'no arguments'}, English ${[...want].join(', ') || 'none'}`,
      );
    }
  }
  for (const key of Object.keys(catalogue)) {
    if (!(key in (english ?? {}))) problems.push(`${language}.json: "${key}" is not in en.json`);
  }
}

/** Reads the template literal whose backtick is at `start`; returns its text (holes as \0) and end. */
function readTemplate(source, start, templates) {
  let text = '';
  let i = start + 1;
  while (i < source.length) {
    const char = source[i];
    if (char === '\\') {
      text += source.slice(i, i + 2);
      i += 2;
    } else if (char === '`') {
      return { text, end: i + 1 };
    } else if (char === '$' && source[i + 1] === '{') {
      i = skipExpression(source, i + 2, templates);
      text += '\0';
    } else {
      text += char;
      i += 1;
    }
  }
  return { text, end: i };
}

/** Skips a `${…}` expression to just past its `}`, collecting the html`` templates inside it. */
function skipExpression(source, start, templates) {
  let depth = 1;
  let i = start;
  while (i < source.length && depth > 0) {
    const char = source[i];
    if (char === '`') {
      const template = readTemplate(source, i, templates);
      if (source.slice(Math.max(0, i - 4), i) === 'html') templates.push(template.text);
      i = template.end;
      continue;
    }
    if (char === "'" || char === '"') {
      const close = source.indexOf(char, i + 1);
      i = close === -1 ? source.length : close + 1;
      continue;
    }
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    i += 1;
  }
  return i;
}

function htmlTemplates(source) {
  const templates = [];
  const pattern = /html`/g;
  let match = pattern.exec(source);
  while (match) {
    const template = readTemplate(source, match.index + 4, templates);
    templates.push(template.text);
    pattern.lastIndex = template.end;
    match = pattern.exec(source);
  }
  return templates;
}

const hasWords = (text) => {
  const bare = text
    .replace(/&[a-z]+;|&#\d+;/gi, ' ')
    .replace(/\0/g, ' ')
    .trim();
  return bare !== '' && !ALLOWED.has(bare) && /\p{L}/u.test(bare);
};

function checkView(path) {
  const source = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const name = relative(ROOT, path);
  for (const template of htmlTemplates(source)) {
    // A fragment of attributes (html` data-brand="${…}"`) holds no text.
    if (/^\s*[\w-]+="/.test(template)) continue;
    const outside = template.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]*>/g, '\n');
    for (const piece of outside.split('\n')) {
      if (hasWords(piece)) problems.push(`${name}: text outside the catalogue: "${piece.trim()}"`);
    }
    for (const [tag] of template.matchAll(/<[a-z][^>]*>/g)) {
      for (const [, attr, value] of tag.matchAll(/\s(title|alt|placeholder|aria-label|content)="([^"]*)"/g)) {
        // `content` only on the description meta tag: the others hold settings and URLs.
        if (attr === 'content' && !/name="description"/.test(tag)) continue;
        if (hasWords(value)) problems.push(`${name}: ${attr}="${value}" outside the catalogue`);
      }
    }
  }
}

function viewFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'admin' ? [] : viewFiles(path);
    return entry.endsWith('.ts') ? [path] : [];
  });
}
for (const path of viewFiles(VIEWS)) checkView(path);

if (problems.length > 0) {
  console.error(`check-messages: ${problems.length} problem(s)`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `check-messages: ${languages.length} catalogues of ${Object.keys(english).length} messages, views clean`,
);

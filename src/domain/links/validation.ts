import type { DestinationGroup } from '../groups.js';
import {
  fillAlternative,
  IDENTIFIER_PLACEHOLDERS,
  PLACEHOLDER_IN_HOST,
  PLACEHOLDERS,
  placeholdersOf,
  templateAlternatives,
} from './templates.js';

// Validation, for the admin form and the seed

const SAMPLE_VALUES: Readonly<Record<string, string>> = Object.fromEntries(
  PLACEHOLDERS.map((name) => [name, name === 'standard_ebooks' ? 'author/title' : 'sample']),
);

/** Problems with a template, empty when it is usable. */
export function templateProblems(template: string, group: DestinationGroup): string[] {
  const problems: string[] = [];
  for (const alternative of templateAlternatives(template)) {
    const names = placeholdersOf(alternative);
    for (const name of names) {
      if (!PLACEHOLDERS.includes(name)) problems.push(`unknown placeholder {${name}}`);
    }
    if (PLACEHOLDER_IN_HOST.test(alternative)) problems.push(`placeholder in the host: ${alternative}`);
    if (!alternative.startsWith('https://')) problems.push(`not an https URL: ${alternative}`);
    else if (!fillAlternative(alternative, SAMPLE_VALUES))
      problems.push(`does not form a URL: ${alternative}`);
    // A free copy is a claim that the book is there: only a confirmed identifier may back it.
    const claims = names.every((name) => (IDENTIFIER_PLACEHOLDERS as readonly string[]).includes(name));
    if (group === 'free' && !claims) problems.push(`free links may use only identifiers: ${alternative}`);
  }
  return problems;
}

/** A JSON column of strings (`books.authors`, `api_keys.scopes`): its strings, [] when it is no array. */
export function parseJsonArray(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

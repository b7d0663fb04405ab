/** `raw` as a URL (against `base` when relative), or null when it is none. */
export function parseUrl(raw: string, base?: URL): URL | null {
  try {
    return new URL(raw, base);
  } catch {
    return null;
  }
}

/** `raw` as an http(s) URL, or null when it is none (or another scheme: `javascript:`, `mailto:`…). */
export function parseHttpUrl(raw: string, base?: URL): URL | null {
  const url = parseUrl(raw, base);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url : null;
}

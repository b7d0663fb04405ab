import { parseHttpUrl } from '../urls.js';

/**
 * Turns what a reader pasted into a WHATWG URL, or null. People paste URLs without a scheme, with
 * surrounding text or quotes, and sometimes things that are not web addresses at all.
 */
const HTTP_SCHEME = /^https?:\/\//i;
const ANY_SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// A hostname needs a dot and a letter TLD; this turns away "hello" and bare words.
const HOST_SHAPE = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/;

export function toUrl(input: string): URL | null {
  let text = input.trim().replace(/^[<"'(]+|[>"')]+$/g, '');
  if (/\s/.test(text)) {
    // A URL inside a sentence ("look at https://…"): take the URL, ignore the words.
    const embedded = text.match(/https?:\/\/\S+/i);
    if (!embedded) return null;
    text = embedded[0];
  }
  if (!text) return null;
  if (text.startsWith('//')) text = `https:${text}`;
  else if (!HTTP_SCHEME.test(text)) {
    const scheme = text.match(ANY_SCHEME)?.[1];
    // "amazon.com:443/…" has a dot before the colon and is a host; "mailto:" or "javascript:" is not.
    if (scheme && !scheme.includes('.')) return null;
    text = `https://${text}`;
  }
  const url = parseHttpUrl(text);
  if (!url) return null;
  url.hostname = url.hostname.replace(/\.$/, '');
  if (!HOST_SHAPE.test(url.hostname)) return null;
  return url;
}

/** Decodes each path segment, leaving a segment as it was when it is not valid percent-encoding. */
export function decodePath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** Query and fragment parameters together: some stores (ThriftBooks) keep the ISBN after the `#`. */
export function allParams(url: URL): URLSearchParams {
  const params = new URLSearchParams(url.search);
  const fragment = url.hash.replace(/^#!?\/?/, '');
  if (fragment.includes('=')) {
    for (const [key, value] of new URLSearchParams(fragment)) params.append(key, value);
  }
  return params;
}

/** Mobile and legacy subdomains serve the same pages as the main site. */
export function canonicalHost(hostname: string): string {
  return hostname.replace(/^(?:m|mobile|smile)\./, 'www.');
}

/** Parameters that only track the visit (campaigns, click ids, Amazon search context, affiliates). */
export const TRACKING =
  /^(?:utm_.*|fbclid|gclid|gclsrc|dclid|msclkid|yclid|igshid|mc_cid|mc_eid|_hs.*|ref|ref_|tag|linkcode|linkid|camp|creative|creativeasin|ascsubtag|psc|qid|sr|crid|sprefix|keywords|_encoding|pd_rd_.*|pf_rd_.*|th|si|spm|source_code|affiliate|partnerid|cmpid|ved|sa|usg|ei|oq)$/i;

/** Query pairs worth keeping in a canonical URL of a page we have no whitelist for. */
export function untrackedParams(url: URL): [string, string][] {
  return [...url.searchParams].filter(([key]) => !TRACKING.test(key));
}

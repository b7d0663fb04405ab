/** What a `/go/` link carries besides the book and the destination; every field is optional. */
export interface GoParams {
  sfid?: number | null;
  country?: string | null;
  partner?: string | null;
  src?: string | null;
}

/** `/go/{slug}/{destination}?sfid=…&country=…&partner=…&src=…`, relative to the service origin. */
export function goPath(slug: string, destinationSlug: string, params: GoParams = {}): string {
  const path = `/go/${encodeURIComponent(slug)}/${encodeURIComponent(destinationSlug)}`;
  const query = new URLSearchParams();
  if (params.sfid !== null && params.sfid !== undefined) query.set('sfid', String(params.sfid));
  if (params.country) query.set('country', params.country);
  if (params.partner) query.set('partner', params.partner);
  if (params.src) query.set('src', params.src);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

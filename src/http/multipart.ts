/** One uploaded file of a `multipart/form-data` body. */
export interface UploadedFile {
  filename: string;
  /** What the browser declared: never trusted (the logo's type is read from its bytes). */
  declaredType: string;
  bytes: Buffer;
}

export type MultipartFields = Record<string, string | UploadedFile>;

/** The boundary of a `multipart/form-data` content type, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * A small `multipart/form-data` reader for the admin's one upload form (a logo): the whole body is
 * already in memory under the route's body limit, so no streaming parser is needed. Text fields
 * become strings (empty ones are left out, as the urlencoded forms do), file fields an UploadedFile
 * (a file input left empty is left out). Null when the body is not well formed.
 */
export function parseMultipart(body: Buffer, boundary: string): MultipartFields | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: MultipartFields = {};
  let start = body.indexOf(delimiter);
  if (start < 0) return null;
  while (true) {
    start += delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return fields;
    // Each part: CRLF, headers, a blank line, the content, CRLF before the next delimiter.
    const headerEnd = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(delimiter, start);
    if (headerEnd < 0 || next < 0 || headerEnd > next) return null;
    const headers = body.subarray(start, headerEnd).toString('utf8');
    const content = body.subarray(headerEnd + 4, next - 2);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (name !== undefined && filename !== undefined) {
      const declaredType = /content-type:\s*([^\r\n;]*)/i.exec(headers)?.[1]?.trim() ?? '';
      if (content.length > 0) fields[name] = { filename, declaredType, bytes: Buffer.from(content) };
    } else if (name !== undefined) {
      const value = content.toString('utf8');
      if (value !== '') fields[name] = value;
    }
    start = next;
  }
}

/**
 * A tiny templating core. Every value interpolated into `html` is escaped unless it is already
 * `SafeHtml`, so markup can only enter a page through `raw()` or another `html` template: one grep
 * finds every place that trusts a string. Attributes must be quoted (`href="${url}"`); escaping covers
 * both quote kinds, so a quoted attribute can never be broken out of.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Anything a template accepts; nullish and `false` render nothing so `cond && html\`…\`` reads well. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

// C0 controls but tab, line feed and carriage return; DEL and the C1 controls. A browser shows them
// as nothing or garbage (a title with a bell or an escape sequence); they become U+FFFD, visibly.
const CONTROL_CHARACTERS = /[^\P{Cc}\t\n\r]/gu;

/** Text safe between tags and inside quoted attributes: markup escaped, control characters replaced. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ESCAPES[char] ?? char).replace(CONTROL_CHARACTERS, '\ufffd');
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Trusts markup as is. Only for strings this codebase built itself, never for data. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * JSON for inside a `<script>` element (JSON-LD). Escaping `<`, `>` and `&` as \u sequences keeps
 * `</script>` and `<!--` from ending the element; U+2028/2029 are escaped for older JS parsers.
 */
export function jsonForScript(value: unknown): SafeHtml {
  const json = JSON.stringify(value) ?? 'null';
  return new SafeHtml(
    json
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}

/**
 * A URL fit for `href`/`src`: http(s) absolute URLs and site-relative paths pass; anything else
 * (`javascript:`, `data:`, protocol-relative `//host`) becomes null, because escaping alone does not
 * stop a hostile scheme from running.
 */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const trimmed = url.trim();
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !trimmed.startsWith('/\\')) return trimmed;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

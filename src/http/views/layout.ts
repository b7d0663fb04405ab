import {
  type Brand,
  brandStylesheetPath,
  DEFAULT_BRAND,
  DEFAULT_DISCLOSURE,
  logoPath,
} from '../../domain/brand.js';
import { READER_LANGUAGES } from '../../domain/reader-languages.js';
import { clientMessages, currentLanguage, currentPath, t } from '../i18n/context.js';
import { LANGUAGE_NAMES, withLanguage } from '../i18n/switcher.js';
import { assetUrl } from './assets.js';
import { html, jsonForScript, type SafeHtml, safeUrl } from './html.js';

/** One `<meta>` tag: Open Graph uses `property`, Twitter cards and the rest use `name`. */
export type MetaTag = { property: string; content: string } | { name: string; content: string };

export interface LayoutOptions {
  /** Full document title, already including the site name where wanted. */
  title: string;
  description: string;
  canonicalUrl?: string | null;
  meta?: readonly MetaTag[];
  /** More `<link>` elements for the head: the oEmbed discovery link of a book or list page. */
  links?: readonly SafeHtml[];
  /** Serialized into `<script type="application/ld+json">`, the only inline script a page has. */
  jsonLd?: unknown;
  /** Names of files in `web/`, loaded deferred from `/static/`. */
  scripts?: readonly string[];
  /** `noindex` for error pages. */
  robots?: string;
  bodyClass?: string;
  /** The value already in the header search box. */
  searchQuery?: string;
  /** False for embeddable variants (the `card` template): no header or footer. */
  chrome?: boolean;
  /** False when the page body has its own search box (error pages), so a phone does not show two. */
  headerSearch?: boolean;
  siteName?: string;
  /** The operator's brand: name, logo, accent stylesheet, footer disclosure (defaults without). */
  brand?: Brand;
  body: SafeHtml;
}

export { DEFAULT_SITE_NAME } from '../../domain/brand.js';

/**
 * A policy every page of this layout satisfies: scripts and styles only from this origin (JSON-LD is
 * data, not script, so it needs no exception), covers and destination icons from any https host.
 * `frame-ancestors` is left to the route layer: the `card` template is meant to be framed.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

function metaTag(tag: MetaTag): SafeHtml {
  return 'property' in tag
    ? html`<meta property="${tag.property}" content="${tag.content}">`
    : html`<meta name="${tag.name}" content="${tag.content}">`;
}

export function searchForm(query: string | undefined, className: string, label: string): SafeHtml {
  return html`<form class="${className}" action="/search" method="get" role="search">
  <input type="search" name="q" value="${query ?? ''}" placeholder="${t('layout.search.placeholder')}" aria-label="${label}" maxlength="500" required>
  <button type="submit">${t('layout.search.button')}</button>
</form>`;
}

/** The logo (or the default mark) before the site name; the name is the link's text, so the image is decorative. */
export function brandMark(brand: Brand): SafeHtml {
  return brand.logo
    ? html`<img class="brand__logo" src="${logoPath(brand.logo)}" alt="" height="28">`
    : html`<span class="brand__mark" aria-hidden="true"></span>`;
}

/** The accent stylesheet of the operator's colours, after the main one (none without). */
export function brandStylesheetLink(brand: Brand): SafeHtml {
  const path = brandStylesheetPath(brand);
  return path ? html`<link rel="stylesheet" href="${path}">` : html``;
}

/**
 * Links to this page in each language (`/language` sets the cookie and comes back), so the switch
 * works without JavaScript. `back` is the canonical page where there is one, else this request's path.
 */
function languageSwitcher(canonical: string | null): SafeHtml {
  const here = currentLanguage();
  const back = canonical ? new URL(canonical, 'http://booklink.invalid') : null;
  const path = back ? `${back.pathname}${back.search}` : currentPath();
  return html`<nav class="language-switcher" aria-label="${t('layout.language.label')}">
  <ul>${READER_LANGUAGES.map((code) =>
    code === here
      ? html`<li><span lang="${code}" aria-current="true">${LANGUAGE_NAMES[code]}</span></li>`
      : html`<li><a href="/language?lang=${code}&amp;back=${encodeURIComponent(path)}" lang="${code}" hreflang="${code}" rel="nofollow">${LANGUAGE_NAMES[code]}</a></li>`,
  )}</ul>
</nav>`;
}

/** `hreflang` alternates of an indexable page: `?lang=` per language, the plain address as x-default. */
function alternates(canonical: string | null): SafeHtml {
  if (!canonical) return html``;
  return html`${READER_LANGUAGES.map((code) => html`<link rel="alternate" hreflang="${code}" href="${withLanguage(canonical, code)}">`)}
<link rel="alternate" hreflang="x-default" href="${canonical}">`;
}

function header(brand: Brand, siteName: string, query: string | undefined, search: boolean): SafeHtml {
  return html`<header class="site-header">
  <div class="site-header__inner">
    <a class="brand" href="/">${brandMark(brand)}${siteName}</a>
    ${search && searchForm(query, 'search search--header', t('layout.search.label'))}
  </div>
</header>`;
}

function footer(siteName: string, disclosure: string, canonical: string | null): SafeHtml {
  return html`<footer class="site-footer">
  <nav aria-label="${t('layout.footer.nav')}">
    <a href="/">${siteName}</a>
    <a href="/developers.md">${t('layout.footer.developers')}</a>
    <a href="/docs">${t('layout.footer.api')}</a>
  </nav>
  ${languageSwitcher(canonical)}
  <p class="site-footer__disclosure">${disclosure === DEFAULT_DISCLOSURE ? t('layout.footer.commission') : disclosure}</p>
</footer>`;
}

export function renderLayout(options: LayoutOptions): string {
  const brand = options.brand ?? DEFAULT_BRAND;
  const siteName = options.siteName ?? brand.siteName;
  const canonical = safeUrl(options.canonicalUrl);
  const chrome = options.chrome ?? true;
  const page = html`<!doctype html>
<html lang="${currentLanguage()}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<meta name="description" content="${options.description}">
${options.robots && html`<meta name="robots" content="${options.robots}">`}
${canonical && html`<link rel="canonical" href="${canonical}">`}
${options.robots?.includes('noindex') ? html`` : alternates(canonical)}
${(options.meta ?? []).map(metaTag)}
${options.links ?? []}
<meta name="color-scheme" content="light dark">
<link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('styles.css')}">
${brandStylesheetLink(brand)}
${(options.scripts ?? []).map((name) => html`<script src="${assetUrl(name)}" defer></script>`)}
${options.jsonLd !== undefined && html`<script type="application/ld+json">${jsonForScript(options.jsonLd)}</script>`}
${(options.scripts ?? []).length > 0 && html`<script type="application/json" id="booklink-text">${jsonForScript(clientMessages())}</script>`}
</head>
<body class="${options.bodyClass ?? ''}">
<a class="skip-link" href="#main">${t('layout.skip')}</a>
${chrome && header(brand, siteName, options.searchQuery, options.headerSearch ?? true)}
${options.body}
${chrome && footer(siteName, brand.disclosure, canonical)}
</body>
</html>
`;
  return page.value;
}

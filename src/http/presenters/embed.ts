import { DEFAULT_DISCLOSURE, logoPath } from '../../domain/brand.js';
import type { DestinationGroup } from '../../domain/groups.js';
import type { Brand } from '../../services/brand.js';
import type { EmbedContent } from '../../services/embeds.js';
import { currentLanguage, t } from '../i18n/context.js';
import { groupTitle, joinNames } from '../views/book-format.js';
import { goPath } from './book-page.js';
import { type OfferJson, offerJson } from './offers.js';

/** One button of an embed. `url` is an absolute `/go/` URL on this service, so every click is counted. */
export interface EmbedLink {
  destination: string;
  name: string;
  label: string | null;
  featured: boolean;
  url: string;
  /** `product`: the book's own page at the store; `search`: a search there for it. */
  kind: 'product' | 'search';
  /** The price or lending state for the country, as last read; null when none is known. */
  offer: OfferJson | null;
}

export interface EmbedGroup {
  group: DestinationGroup;
  title: string;
  links: EmbedLink[];
}

/** The body of `GET /embed/{book}.json`, also the model of the `/embed/{slug}` page. */
export interface EmbedData {
  book: {
    slug: string;
    title: string;
    subtitle: string | null;
    authors: string[];
    cover_url: string | null;
    url: string;
  };
  country: string | null;
  partner: string | null;
  /** The reader's language (issue 44), and the embed's own words in it, for /embed.js to show. */
  language: string;
  text: EmbedText;
  groups: EmbedGroup[];
  /** The operator's brand: the card's footer names the site and carries its disclosure and accent. */
  site: EmbedSite;
}

export interface EmbedSite {
  name: string;
  url: string;
  logo_url: string | null;
  disclosure: string;
  /** `#rrggbb` or null (the embed's own colour), per theme. */
  accent_light: string | null;
  accent_dark: string | null;
}

/** The brand as the embed shows it, absolute URLs (the card lives on other sites). */
export function embedSite(brand: Brand, baseUrl: string): EmbedSite {
  return {
    name: brand.siteName,
    url: `${baseUrl}/`,
    logo_url: brand.logo ? `${baseUrl}${logoPath(brand.logo)}` : null,
    // The operator's own disclosure as written; the default one in the reader's language.
    disclosure: brand.disclosure === DEFAULT_DISCLOSURE ? t('embed.foot') : brand.disclosure,
    accent_light: brand.accentLight,
    accent_dark: brand.accentDark,
  };
}

export interface EmbedText {
  /** "Where to get {title}": the card's accessible name. */
  label: string;
  /** "by {names}", or null without authors. */
  authors: string | null;
  empty: string;
  foot: string;
  new_tab: string;
  /** The label of a link that runs a search at the store, with `{name}` where the store's name goes. */
  search: string;
}

/** `/go/…?country=…&partner=…`: the partner rides along so `/go/` can apply its tag and record it. */
export function embedGoUrl(
  baseUrl: string,
  slug: string,
  destination: string,
  country: string | null,
  partner: string | null,
): string {
  const path = goPath(slug, destination, null, country);
  if (!partner) return `${baseUrl}${path}`;
  const join = path.includes('?') ? '&' : '?';
  return `${baseUrl}${path}${join}partner=${encodeURIComponent(partner)}`;
}

export function embedData(
  content: EmbedContent,
  params: { baseUrl: string; partner: string | null; country: string | null; brand: Brand },
): EmbedData {
  const { book } = content.loaded;
  return {
    book: {
      slug: book.slug,
      title: book.title,
      subtitle: book.subtitle,
      authors: book.authors,
      cover_url: book.coverUrl,
      url: `${params.baseUrl}/book/${encodeURIComponent(book.slug)}`,
    },
    country: params.country,
    partner: params.partner,
    site: embedSite(params.brand, params.baseUrl),
    language: currentLanguage(),
    text: {
      label: t('embed.frameTitle', { title: book.title }),
      authors: book.authors.length > 0 ? t('book.by', { names: joinNames(book.authors) }) : null,
      empty: t('embed.empty'),
      foot: t('embed.foot'),
      new_tab: t('embed.newTab'),
      search: t('embed.search', { name: '{name}' }),
    },
    groups: content.groups
      .filter((group) => group.links.length > 0)
      .map((group) => ({
        group: group.group,
        title: groupTitle(group.group),
        links: group.links.map((link) => ({
          destination: link.destination.slug,
          name: link.destination.displayName,
          label: link.label,
          featured: link.featured,
          kind: link.kind,
          offer: offerJson(content.offers.get(link.destination.slug), params.country),
          // The storefront's own country, so /go/ sends the reader to the store the button named; so
          // does a store's own link from an offer.
          url: embedGoUrl(
            params.baseUrl,
            book.slug,
            link.destination.slug,
            link.destination.country ??
              (content.offers.get(link.destination.slug)?.url ? params.country : null),
            params.partner,
          ),
        })),
      })),
  };
}

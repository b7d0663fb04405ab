import { t } from '../i18n/context.js';
import { fullTitle, joinNames, schemaBookFormat, truncate } from './book-format.js';
import { safeUrl } from './html.js';
import type { MetaTag } from './layout.js';
import type { BookPageModel, EditionView } from './models.js';

/** What search engines and link unfurlers read: the meta description, social cards and JSON-LD. */

export function bookDocumentTitle(model: BookPageModel, siteName: string): string {
  return model.book.authors.length > 0
    ? t('book.documentTitle', {
        title: model.book.title,
        names: joinNames(model.book.authors),
        site: siteName,
      })
    : t('book.documentTitleAnon', { title: model.book.title, site: siteName });
}

export function bookMetaDescription(model: BookPageModel): string {
  const { book } = model;
  if (book.description) return truncate(book.description, 200);
  return book.authors.length > 0
    ? t('book.metaDescription', { title: book.title, names: joinNames(book.authors) })
    : t('book.metaDescriptionAnon', { title: book.title });
}

export function bookSocialTags(model: BookPageModel, siteName: string): MetaTag[] {
  const { book } = model;
  const image = safeUrl(book.coverUrl);
  const title =
    book.authors.length > 0
      ? t('book.titleBy', { title: fullTitle(book), names: joinNames(book.authors) })
      : fullTitle(book);
  const description = bookMetaDescription(model);
  const tags: MetaTag[] = [
    { property: 'og:type', content: 'book' },
    { property: 'og:site_name', content: siteName },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: model.canonicalUrl },
  ];
  if (image)
    tags.push(
      { property: 'og:image', content: image },
      { property: 'og:image:alt', content: t('book.coverAlt', { title: book.title }) },
    );
  const isbn = book.isbn13 ?? book.isbn10;
  if (isbn) tags.push({ property: 'book:isbn', content: isbn });
  if (book.publishedDate) tags.push({ property: 'book:release_date', content: book.publishedDate });
  tags.push(
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
  );
  if (image) tags.push({ name: 'twitter:image', content: image });
  return tags;
}

type JsonObject = { [key: string]: unknown };

/** Drops null/undefined fields so the JSON-LD carries only what we know. */
function compact(object: JsonObject): JsonObject {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== null && value !== undefined),
  );
}

function editionLd(model: BookPageModel, edition: EditionView): JsonObject {
  return compact({
    '@type': 'Book',
    name: edition.title,
    url: `${model.baseUrl}/book/${encodeURIComponent(edition.slug)}`,
    isbn: edition.isbn13,
    bookFormat: schemaBookFormat(edition.format),
    datePublished: edition.publishedDate,
  });
}

/** schema.org `Offer`s of the stores whose price (or gift) is known, as last read. */
function offersLd(model: BookPageModel): JsonObject[] {
  return model.groups.flatMap((group) =>
    group.links.flatMap((link) => {
      const offer = link.offer;
      if (!offer || (offer.state !== 'for_sale' && offer.state !== 'free')) return [];
      return [
        compact({
          '@type': 'Offer',
          url: `${model.baseUrl}${link.href}`,
          price: offer.state === 'free' ? 0 : offer.amount,
          priceCurrency: offer.currency,
          availability: 'https://schema.org/InStock',
          seller: { '@type': 'Organization', name: link.name },
          priceValidUntil: null,
          validFrom: offer.readAt,
        }),
      ];
    }),
  );
}

/** schema.org Book. `workExample` lists the other editions of the same work. */
export function bookJsonLd(model: BookPageModel): JsonObject {
  const { book } = model;
  const others = model.editions.filter((edition) => !edition.current);
  const offers = offersLd(model);
  return compact({
    '@context': 'https://schema.org',
    '@type': 'Book',
    '@id': model.canonicalUrl,
    url: model.canonicalUrl,
    name: fullTitle(book),
    author: book.authors.map((name) => ({ '@type': 'Person', name })),
    isbn: book.isbn13 ?? book.isbn10,
    datePublished: book.publishedDate,
    publisher: book.publisher ? { '@type': 'Organization', name: book.publisher } : null,
    image: safeUrl(book.coverUrl),
    bookFormat: schemaBookFormat(book.format),
    inLanguage: book.language,
    numberOfPages: book.pages,
    description: book.description ? truncate(book.description, 500) : null,
    workExample: others.length > 0 ? others.map((edition) => editionLd(model, edition)) : null,
    offers: offers.length > 0 ? offers : null,
  });
}

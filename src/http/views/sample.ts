import { GROUP_TITLES } from '../../domain/groups.js';
import type { BookPageModel, DestinationLinkView, LinkGroupView } from './models.js';

/**
 * A realistic book page model: a fixture for view tests, `scripts/render-sample.ts` and anyone
 * previewing the templates. Every group has links, so every part of the page shows.
 */

type LinkSeed = [slug: string, name: string, brand: string | null, extra?: Partial<DestinationLinkView>];

/** The operator's featured store of a group, shown first with its tagline. */
const featured = (tagline: string): Partial<DestinationLinkView> => ({ featured: true, tagline });

const SEEDS: Readonly<Record<LinkGroupView['group'], readonly LinkSeed[]>> = {
  new: [
    ['bookshop', 'Bookshop.org', '#4c3b8f', featured('Every purchase supports independent bookshops')],
    ['amazon', 'Amazon', '#ff9900'],
    ['barnes-noble', 'Barnes & Noble', '#2a5934'],
  ],
  used: [
    ['abebooks', 'AbeBooks', '#c8102e', { tagline: 'Rare, collectible and secondhand copies' }],
    ['thriftbooks', 'ThriftBooks', '#3b7d3b'],
  ],
  ebook: [
    ['kobo', 'Kobo', '#bf1e2e', { label: 'EPUB' }],
    ['apple-books', 'Apple Books', '#f25c05'],
    ['google-play', 'Google Play Books', '#01875f'],
  ],
  audiobook: [
    ['librofm', 'Libro.fm', '#e4573d', featured('Audiobooks that support local bookstores')],
    ['audible', 'Audible', '#f7991c'],
  ],
  library: [
    ['libby', 'Libby', '#8e2466', { tagline: 'Borrow the ebook or audiobook with a library card' }],
    ['worldcat', 'WorldCat', '#1e5aa8', { tagline: 'Find a copy in a library near you' }],
  ],
  free: [
    ['gutenberg', 'Project Gutenberg', '#6a3e20', { tagline: 'Public domain: free to read and download' }],
    ['standard-ebooks', 'Standard Ebooks', '#3d3d3d', { label: 'Free' }],
  ],
};

function link(slug: string, group: LinkGroupView['group'], seed: LinkSeed): DestinationLinkView {
  const [destinationSlug, name, brandColor, extra] = seed;
  return {
    destinationSlug,
    name,
    group,
    href: `/go/${slug}/${destinationSlug}`,
    label: null,
    tagline: null,
    featured: false,
    brandColor,
    iconUrl: null,
    kind: group === 'new' || group === 'free' ? 'product' : 'search',
    ...extra,
  };
}

export function sampleBookPageModel(
  baseUrl = 'https://books.example.org',
  coverUrl: string | null = null,
): BookPageModel {
  const slug = 'frankenstein-mary-shelley';
  const groups = (Object.keys(SEEDS) as LinkGroupView['group'][]).map((group) => ({
    group,
    title: GROUP_TITLES[group],
    links: SEEDS[group].map((seed) => link(slug, group, seed)),
  }));
  return {
    baseUrl,
    canonicalUrl: `${baseUrl}/book/${slug}`,
    shortUrl: `${baseUrl}/b/${slug}`,
    book: {
      id: 4211,
      slug,
      title: 'Frankenstein',
      subtitle: 'Or, The Modern Prometheus',
      authors: ['Mary Shelley'],
      coverUrl,
      isbn13: '9780141439471',
      isbn10: '0141439475',
      publishedDate: '2003-01-30',
      publisher: 'Penguin Classics',
      format: 'paperback',
      language: 'en',
      pages: 352,
      description: SAMPLE_DESCRIPTION,
    },
    groups,
    editions: [
      {
        slug,
        title: 'Frankenstein',
        format: 'paperback',
        publishedDate: '2003-01-30',
        isbn13: '9780141439471',
        current: true,
      },
      {
        slug: 'frankenstein-mary-shelley-2',
        title: 'Frankenstein',
        format: 'hardcover',
        publishedDate: '1992-10-01',
        isbn13: '9780679418412',
        current: false,
      },
      {
        slug: 'frankenstein-mary-shelley-3',
        title: 'Frankenstein',
        format: 'ebook',
        publishedDate: '2012-08-02',
        isbn13: '9781101640012',
        current: false,
      },
      {
        slug: 'frankenstein-mary-shelley-4',
        title: 'Frankenstein',
        format: 'audiobook',
        publishedDate: '2017-05-09',
        isbn13: '9781501948480',
        current: false,
      },
    ],
    template: 'default',
    highlight: null,
  };
}

const SAMPLE_DESCRIPTION = [
  'Obsessed with creating life itself, Victor Frankenstein plunders graveyards for the material to fashion a new being, which he shocks into life with electricity. But his botched creature, rejected by Frankenstein and denied human companionship, sets out to destroy his maker and all that he holds dear.',
  "Mary Shelley's chilling Gothic tale was conceived when she was only eighteen, living with her lover Percy Shelley on Lake Geneva. The story of Victor Frankenstein who, obsessed with discovering the cause of generation and life, creates a monster, has become one of the most enduring myths of the modern age.",
  'This edition is based on the third edition of 1831 and includes an introduction, chronology, notes and the original 1818 preface by Percy Bysshe Shelley.',
].join('\n\n');

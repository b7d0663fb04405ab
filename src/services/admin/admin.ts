import type { OfferSource } from '../../domain/offers.js';
import type { Db } from '../../store/schema.js';
import type { BrandSettings } from '../brand.js';
import type { ChangeEvents } from '../change-events.js';
import { AdminAccessCodes } from './access-codes.js';
import { AdminAffiliate } from './affiliate.js';
import { AdminAnalytics } from './analytics.js';
import { AdminAudit } from './audit.js';
import { AdminAuth } from './auth.js';
import { AdminBooks } from './books.js';
import { AdminBrand } from './brand.js';
import { AdminDestinations } from './destinations.js';
import { AdminEarnings } from './earnings.js';
import { AdminEditions } from './editions.js';
import { AdminKeys } from './keys.js';
import { AdminLinks } from './links.js';
import { AdminLists, type BookFinder } from './lists.js';
import { AdminOffers } from './offers.js';
import { AdminPartners } from './partners.js';
import { AdminPins } from './pins.js';
import { AdminUsers } from './users.js';

/** The operator's area, one object per part of it; the admin routes reach the database only through these. */
export interface AdminServices {
  auth: AdminAuth;
  analytics: AdminAnalytics;
  books: AdminBooks;
  editions: AdminEditions;
  destinations: AdminDestinations;
  /** Curated book links: added from a book's page, changed from it or from its destination's. */
  links: AdminLinks;
  pins: AdminPins;
  lists: AdminLists;
  accessCodes: AdminAccessCodes;
  keys: AdminKeys;
  partners: AdminPartners;
  /** The operator's affiliate tags and the stores that sent clicks without one. */
  affiliate: AdminAffiliate;
  /** What earns: clicks per store by tag, and each book's click-through. */
  earnings: AdminEarnings;
  users: AdminUsers;
  audit: AdminAudit;
  brand: AdminBrand;
  /** The offer sources' switches (issue 47). */
  offers: AdminOffers;
}

export interface AdminDependencies {
  db: Db;
  /** Cache-invalidating changes the commands emit. */
  events: ChangeEvents;
  /** Adding a book to a list by ISBN or retailer address may create the book from the catalogs. */
  finder: BookFinder;
  /** Called after every partner change: cached partner lookups and `/go/` targets carry tags. */
  partnersChanged: () => void;
  /** `AFFILIATE_TAGS`: shown in the affiliate settings, where they override the tags set there. */
  affiliateEnvironment: Readonly<Record<string, string>>;
  /** The brand every page reads (cached; the brand commands drop it through `brand-changed`). */
  brand: BrandSettings;
  /** The offer sources the configuration allows (`OFFER_SOURCES` within `PROVIDERS`). */
  offerSources?: readonly OfferSource[];
}

/** Built once, in `createServices`. */
export function createAdminServices({
  db,
  events,
  finder,
  partnersChanged,
  affiliateEnvironment,
  brand,
  offerSources = [],
}: AdminDependencies): AdminServices {
  return {
    auth: new AdminAuth(db),
    analytics: new AdminAnalytics(db),
    books: new AdminBooks(db, events),
    editions: new AdminEditions(db, events),
    destinations: new AdminDestinations(db, events),
    links: new AdminLinks(db, events),
    pins: new AdminPins(db, events),
    lists: new AdminLists(db, events, finder),
    accessCodes: new AdminAccessCodes(db, events),
    keys: new AdminKeys(db, events),
    partners: new AdminPartners(db, events, partnersChanged),
    affiliate: new AdminAffiliate(db, events, affiliateEnvironment),
    earnings: new AdminEarnings(db),
    users: new AdminUsers(db, events),
    audit: new AdminAudit(db),
    brand: new AdminBrand(db, events, brand),
    offers: new AdminOffers(db, events, offerSources),
  };
}

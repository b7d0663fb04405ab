import {
  type Brand,
  type BrandLogo,
  DEFAULT_BRAND,
  DEFAULT_DISCLOSURE,
  DEFAULT_SITE_NAME,
  type LogoType,
  normaliseHexColour,
} from '../domain/brand.js';
import { isReaderLanguage, type ReaderLanguage } from '../domain/reader-languages.js';
import { normaliseCountry } from '../domain/storefronts.js';
import { findBrandLogo, readBrandSettings } from '../store/brand.js';
import type { Db } from '../store/schema.js';

export type { Brand, BrandLogo } from '../domain/brand.js';

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

const LOGO_TYPES: ReadonlySet<string> = new Set<LogoType>(['image/png', 'image/jpeg', 'image/webp']);

function logoOf(value: unknown): BrandLogo | null {
  if (typeof value !== 'object' || value === null) return null;
  const { hash, contentType } = value as { hash?: unknown; contentType?: unknown };
  if (typeof hash !== 'string' || !/^[0-9a-f]{16,64}$/.test(hash)) return null;
  if (typeof contentType !== 'string' || !LOGO_TYPES.has(contentType)) return null;
  return { hash, contentType: contentType as LogoType };
}

/** Stored settings → a whole brand: anything missing or malformed takes its default. */
export function brandOf(stored: unknown, fallbackContact: string | null): Brand {
  const value = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  const colour = (field: unknown) => {
    const raw = text(field);
    return raw ? normaliseHexColour(raw) : null;
  };
  return {
    siteName: text(value.siteName) ?? DEFAULT_SITE_NAME,
    logo: logoOf(value.logo),
    accentLight: colour(value.accentLight),
    accentDark: colour(value.accentDark),
    disclosure: text(value.disclosure) ?? DEFAULT_DISCLOSURE,
    defaultLanguage: text(value.defaultLanguage),
    defaultCountry: text(value.defaultCountry),
    contactEmail: text(value.contactEmail) ?? fallbackContact,
  };
}

/**
 * The operator's brand as every page reads it: loaded from the database once, kept until a
 * `brand-changed` event (from this instance or, through the relay, another) drops it. The settings
 * the admin stores for language and country are exposed here for the language negotiation.
 */
export class BrandSettings {
  private cached: Promise<Brand> | null = null;
  private last: Brand = DEFAULT_BRAND;

  constructor(
    private readonly db: Db,
    /** CONTACT_EMAIL: the contact until the operator sets one in the admin area. */
    private readonly fallbackContact: string | null,
    /** DEFAULT_LANGUAGE and DEFAULT_COUNTRY: the defaults until the operator sets others. */
    private readonly defaults: { language: ReaderLanguage; country: string } = {
      language: 'en',
      country: 'US',
    },
  ) {}

  /**
   * The language of a reader nothing else tells (no `?lang=`, cookie or Accept-Language of ours): the
   * admin area's choice, else DEFAULT_LANGUAGE. Read without waiting, from the brand last read.
   */
  defaultLanguage(): ReaderLanguage {
    const chosen = this.last.defaultLanguage;
    return isReaderLanguage(chosen) ? chosen : this.defaults.language;
  }

  /** The country of a reader nothing else tells: the admin area's choice, else DEFAULT_COUNTRY. */
  defaultCountry(): string {
    return normaliseCountry(this.last.defaultCountry) ?? this.defaults.country;
  }

  current(): Promise<Brand> {
    if (!this.cached) {
      const loading = readBrandSettings(this.db).then((stored) => {
        this.last = brandOf(stored, this.fallbackContact);
        return this.last;
      });
      // A failed read is not kept: the next page asks the database again.
      loading.catch(() => {
        if (this.cached === loading) this.cached = null;
      });
      this.cached = loading;
    }
    return this.cached;
  }

  /**
   * The brand last read, without waiting (error pages, rendered where nothing may be awaited); a
   * change shows there from the next page that reads the brand.
   */
  latest(): Brand {
    return this.last;
  }

  invalidate(): void {
    this.cached = null;
  }

  /** The stored logo with this hash (any instance serves any logo, current or not yet pruned). */
  logo(hash: string): Promise<{ contentType: LogoType; bytes: Buffer } | null> {
    return findBrandLogo(this.db, hash);
  }
}

import { createHash } from 'node:crypto';
import {
  type Brand,
  type BrandLogo,
  MAX_DISCLOSURE,
  MAX_LOGO_BYTES,
  MAX_SITE_NAME,
  MIN_CONTRAST,
  normaliseHexColour,
  sniffLogoType,
  themeContrast,
} from '../../domain/brand.js';
import { isValidCountry } from '../../domain/partners.js';
import { pruneBrandLogos, readBrandSettings, saveBrandLogo, writeBrandSettings } from '../../store/brand.js';
import type { Db } from '../../store/schema.js';
import type { BrandSettings } from '../brand.js';
import type { ChangeEvents } from '../change-events.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';

/** The brand form as typed ('' leaves a field at its default). */
export interface BrandInput {
  siteName: string;
  accentLight: string;
  accentDark: string;
  disclosure: string;
  defaultLanguage: string;
  defaultCountry: string;
  contactEmail: string;
}

/** What is stored: only what the operator set (null takes the default). */
interface StoredBrand {
  siteName: string | null;
  logo: BrandLogo | null;
  accentLight: string | null;
  accentDark: string | null;
  disclosure: string | null;
  defaultLanguage: string | null;
  defaultCountry: string | null;
  contactEmail: string | null;
}

/** ISO 639-1: two lower-case letters (the language negotiation decides which it offers). */
const LANGUAGE = /^[a-z]{2}$/;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

function accent(value: string, theme: 'light' | 'dark', errors: FieldErrors, field: string): string | null {
  if (!value.trim()) return null;
  const colour = normaliseHexColour(value);
  if (!colour) {
    errors[field] = 'Use a hex colour like #2646a6.';
    return null;
  }
  const ratio = themeContrast(colour, theme);
  if (ratio < MIN_CONTRAST) {
    errors[field] =
      `${colour} has a contrast of ${ratio.toFixed(2)}:1 on the ${theme} theme's backgrounds; ` +
      `links need at least ${MIN_CONTRAST}:1. Choose a ${theme === 'light' ? 'darker' : 'lighter'} colour.`;
  }
  return colour;
}

/** The typed fields, checked: the values to store, or the errors beside their fields. */
export function checkBrand(input: BrandInput): CommandResult<Omit<StoredBrand, 'logo'>> {
  const errors: FieldErrors = {};
  const siteName = input.siteName.trim().replace(/\s+/g, ' ');
  if (siteName.length > MAX_SITE_NAME) errors.site_name = `Keep the name under ${MAX_SITE_NAME} characters.`;
  const disclosure = input.disclosure.trim().replace(/\s+/g, ' ');
  if (disclosure.length > MAX_DISCLOSURE)
    errors.disclosure = `Keep the disclosure under ${MAX_DISCLOSURE} characters.`;
  const accentLight = accent(input.accentLight, 'light', errors, 'accent_light');
  const accentDark = accent(input.accentDark, 'dark', errors, 'accent_dark');
  const language = input.defaultLanguage.trim().toLowerCase();
  if (language && !LANGUAGE.test(language))
    errors.default_language = 'Use a two-letter language code (ISO 639-1), like en or fr.';
  const country = input.defaultCountry.trim().toUpperCase();
  if (country && !isValidCountry(country))
    errors.default_country = 'Use a two-letter country code (ISO 3166-1), like GB or US.';
  const email = input.contactEmail.trim();
  if (email && (!EMAIL.test(email) || email.length > 200)) errors.contact_email = 'Use an email address.';
  if (Object.keys(errors).length > 0) return invalid(errors);
  return ok({
    siteName: siteName || null,
    accentLight,
    accentDark,
    disclosure: disclosure || null,
    defaultLanguage: language || null,
    defaultCountry: country || null,
    contactEmail: email || null,
  });
}

function storedOf(value: unknown): StoredBrand {
  const empty: StoredBrand = {
    siteName: null,
    logo: null,
    accentLight: null,
    accentDark: null,
    disclosure: null,
    defaultLanguage: null,
    defaultCountry: null,
    contactEmail: null,
  };
  return typeof value === 'object' && value !== null
    ? { ...empty, ...(value as Partial<StoredBrand>) }
    : empty;
}

/** The brand settings (admins only); every change is audited and reaches every instance's pages. */
export class AdminBrand extends AdminArea {
  constructor(
    db: Db,
    events: ChangeEvents,
    private readonly settings: BrandSettings,
  ) {
    super(db, events);
  }

  /** The brand as pages show it (defaults filled in). */
  current(): Promise<Brand> {
    return this.settings.current();
  }

  async save(actor: AuditActor, input: BrandInput): Promise<CommandResult> {
    const checked = checkBrand(input);
    if (!checked.ok) return checked;
    await this.change(actor, 'brand.update', (before) => ({ ...checked.value, logo: before.logo }));
    return ok(undefined);
  }

  /** An uploaded logo: PNG, JPEG or WebP by its bytes, at most MAX_LOGO_BYTES. */
  async uploadLogo(actor: AuditActor, bytes: Buffer | null): Promise<CommandResult> {
    if (!bytes || bytes.length === 0) return invalid({ logo: 'Choose an image file.' });
    if (bytes.length > MAX_LOGO_BYTES)
      return invalid({ logo: `The logo may be ${MAX_LOGO_BYTES / 1024} kB at most.` });
    const contentType = sniffLogoType(bytes);
    if (!contentType) return invalid({ logo: 'Upload a PNG, JPEG or WebP image (SVG is not accepted).' });
    const logo: BrandLogo = {
      hash: createHash('sha256').update(bytes).digest('hex').slice(0, 32),
      contentType,
    };
    await this.change(
      actor,
      'brand.logo',
      (before) => ({ ...before, logo }),
      async (trx) => {
        await saveBrandLogo(trx, logo, bytes);
        await pruneBrandLogos(trx, logo.hash);
      },
    );
    return ok(undefined);
  }

  async removeLogo(actor: AuditActor): Promise<void> {
    await this.change(
      actor,
      'brand.logo_remove',
      (before) => ({ ...before, logo: null }),
      (trx) => pruneBrandLogos(trx, null),
    );
  }

  private async change(
    actor: AuditActor,
    action: string,
    next: (before: StoredBrand) => StoredBrand,
    alsoDo?: (trx: Db) => Promise<void>,
  ): Promise<void> {
    await this.audited(
      actor,
      async (trx) => {
        const before = storedOf(await readBrandSettings(trx));
        const after = next(before);
        await alsoDo?.(trx);
        await writeBrandSettings(trx, after);
        return { before, after };
      },
      ({ before, after }) => ({ action, entityType: 'brand', entityId: 'brand', before, after }),
    );
    this.events.emit('brand-changed');
  }
}

import { DESTINATION_GROUPS, isDestinationGroup } from '../../domain/groups.js';
import { buildDestinationUrl, type Destination, templateProblems } from '../../domain/links.js';
import { baseSlug } from '../../domain/slug.js';
import {
  aliasesOf,
  type DestinationColumns,
  deactivateDestinationRow,
  insertDestination,
  linkCounts,
  renameSlug,
  replaceStorefronts,
  type StorefrontColumns,
  slugTaken,
  updateDestinationColumns,
} from '../../store/admin-destinations.js';
import { type LinkRecord, linksOfDestination } from '../../store/admin-links.js';
import { destinationRowToDestination, listAllDestinations } from '../../store/destinations.js';
import {
  AdminArea,
  type AuditActor,
  type CommandResult,
  type FieldErrors,
  invalid,
  isHttpUrl,
  ok,
} from './commands.js';

export type { LinkRecord } from '../../store/admin-links.js';

/** SPEC 2.4 destination create/update fields, plus group and affiliate settings. */
export interface DestinationInput {
  display_name: string;
  slug: string;
  description: string;
  icon_url: string;
  base_url: string;
  short_name: string;
  display_priority: number;
  brand_color: string;
  url_template: string;
  is_public: boolean;
  is_active: boolean;
  group: string;
  affiliate_param: string;
  affiliate_tag: string;
  /** "GB, IE": where it sells; empty: everywhere. */
  countries: string;
  /** One storefront a line: a country code, then its URL template ("GB https://www.amazon.co.uk/dp/{isbn10}"). */
  storefronts: string;
}

/** The local bookshop form's fields. */
export interface LocalShopInput {
  display_name: string;
  url_template: string;
  countries: string;
}

/** What the form's checks turn into: the destination's columns and its storefronts. */
interface CheckedDestination {
  columns: DestinationColumns;
  storefronts: StorefrontColumns[];
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
const COLOR = /^#[0-9a-f]{6}$/i;

const COUNTRY_CODE = /^[A-Z]{2}$/;

/** "gb, IE" → "GB,IE", or an error naming what is not a country code. */
function checkCountries(text: string): { value: string } | { error: string } {
  const codes = text
    .split(/[\s,;]+/)
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean);
  const wrong = codes.filter((code) => !COUNTRY_CODE.test(code));
  if (wrong.length > 0)
    return { error: `Two-letter country codes (ISO 3166-1), like GB or DE: ${wrong.join(', ')}` };
  return { value: [...new Set(codes)].join(',') };
}

/** "GB https://…" lines → storefront rows; the base URL is the template's own origin. */
function checkStorefronts(
  text: string,
  group: Parameters<typeof templateProblems>[1],
): { value: StorefrontColumns[] } | { error: string } {
  const fronts: StorefrontColumns[] = [];
  const problems: string[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    const match = /^([A-Za-z]{2})\s*[:=]?\s+(\S.*)$/.exec(line);
    const country = match?.[1]?.toUpperCase() ?? '';
    const template = match?.[2]?.trim() ?? '';
    if (!match) {
      problems.push(`line ${index + 1}: a country code, a space, then the URL template`);
      continue;
    }
    if (fronts.some((front) => front.country === country))
      problems.push(`line ${index + 1}: ${country} twice`);
    const templateErrors = templateProblems(template, group);
    if (templateErrors.length > 0) problems.push(`line ${index + 1}: ${templateErrors.join('; ')}`);
    const origin = /^https:\/\/[^/]+/i.exec(template)?.[0] ?? '';
    fronts.push({ country, base_url: origin, url_template: template });
  }
  return problems.length > 0 ? { error: problems.join('; ') } : { value: fronts };
}

/** A sample book for the template preview: a real ISBN with both forms and a comma in the author. */
export const SAMPLE_BOOK = {
  title: 'Pride and Prejudice',
  authors: ['Austen, Jane'],
  isbn13: '9780141439518',
  isbn10: '0141439513',
  identifiers: { gutenberg: '1342', ol_work: 'OL66554W', asin: '0141439513' },
};

/** The template filled for the sample book, or the problems that stop it (live preview in the form). */
export function previewTemplate(
  template: string,
  group: string,
  affiliateParam: string,
  affiliateTag: string,
): { url: string | null; problems: string[] } {
  const safeGroup = isDestinationGroup(group) ? group : 'new';
  const problems = template.trim()
    ? templateProblems(template.trim(), safeGroup)
    : ['The template is empty.'];
  const destination = destinationRowToDestination({
    id: 0,
    slug: 'preview',
    display_name: 'Preview',
    short_name: '',
    description: '',
    group_name: safeGroup,
    url_template: template.trim(),
    base_url: '',
    icon_url: '',
    brand_color: '',
    display_priority: 0,
    is_active: 1,
    is_public: 1,
    affiliate_param: affiliateParam.trim(),
    affiliate_tag: affiliateTag.trim(),
    countries: '',
    created_at: '',
    updated_at: '',
  });
  return { url: problems.length ? null : buildDestinationUrl(destination, SAMPLE_BOOK), problems };
}

/** The Destinations list: every destination (by group, then priority) and its number of book links. */
export interface DestinationsOverview {
  destinations: Destination[];
  linkCounts: ReadonlyMap<number, number>;
}

/** What a destination's page shows beside its form: former slugs and the books linking to it. */
export interface DestinationDetail {
  aliases: string[];
  links: LinkRecord[];
}

/** The Destinations area: retailers, libraries and stores, and the book links to each. */
export class AdminDestinations extends AdminArea {
  async overview(): Promise<DestinationsOverview> {
    const destinations = await listAllDestinations(this.db);
    destinations.sort((a, b) => a.group.localeCompare(b.group) || b.displayPriority - a.displayPriority);
    return { destinations, linkCounts: await linkCounts(this.db) };
  }

  /** Read fresh, inactive ones included (never from the public cache). */
  async find(id: number): Promise<Destination | null> {
    return (await listAllDestinations(this.db)).find((d) => d.id === id) ?? null;
  }

  async detail(destination: Destination): Promise<DestinationDetail> {
    return {
      aliases: await aliasesOf(this.db, destination.id),
      links: await linksOfDestination(this.db, destination.id),
    };
  }

  async create(actor: AuditActor, input: DestinationInput): Promise<CommandResult<number>> {
    const checked = await this.check(input, null);
    if (!checked.ok) return checked;
    const id = await this.audited(
      actor,
      async (trx) => {
        const newId = await insertDestination(trx, checked.value.columns);
        await replaceStorefronts(trx, newId, checked.value.storefronts);
        return newId;
      },
      (newId) => ({
        action: 'destination.create',
        entityType: 'destination',
        entityId: newId,
        after: checked.value,
      }),
    );
    this.events.emit('destinations-changed');
    return ok(id);
  }

  /** The local bookshop form: a shop of the "new" group, public, limited to its countries. */
  async createLocalShop(actor: AuditActor, input: LocalShopInput): Promise<CommandResult<number>> {
    const template = input.url_template.trim();
    const result = await this.create(actor, {
      display_name: input.display_name,
      slug: baseSlug(input.display_name, []).slice(0, 60),
      short_name: input.display_name.trim().slice(0, 50),
      description: '',
      icon_url: '',
      base_url: /^https:\/\/[^/]+/i.exec(template)?.[0] ?? '',
      display_priority: 55,
      brand_color: '',
      url_template: template,
      is_public: true,
      is_active: true,
      group: 'new',
      affiliate_param: '',
      affiliate_tag: '',
      countries: input.countries,
      storefronts: '',
    });
    if (result.ok) return result;
    // The form has no slug field: a taken slug is the name's problem.
    const { slug, ...errors } = result.errors;
    return invalid(slug ? { ...errors, display_name: 'Another destination already has this name.' } : errors);
  }

  /** Updates every field; a new slug leaves the old one as an alias, so published `/go/` links still work. */
  async update(actor: AuditActor, before: Destination, input: DestinationInput): Promise<CommandResult> {
    const checked = await this.check(input, before.id);
    if (!checked.ok) return checked;
    await this.audited(
      actor,
      async (trx) => {
        const { columns } = checked.value;
        await updateDestinationColumns(trx, before.id, columns);
        await replaceStorefronts(trx, before.id, checked.value.storefronts);
        if (columns.slug !== before.slug) await renameSlug(trx, before.id, before.slug, columns.slug);
      },
      {
        action: 'destination.update',
        entityType: 'destination',
        entityId: before.id,
        before,
        after: checked.value,
      },
    );
    this.events.emit('destinations-changed');
    return ok(undefined);
  }

  async deactivate(actor: AuditActor, before: Destination): Promise<void> {
    await this.audited(actor, (trx) => deactivateDestinationRow(trx, before.id), {
      action: 'destination.deactivate',
      entityType: 'destination',
      entityId: before.id,
      before: { isActive: before.isActive },
      after: { isActive: false },
    });
    this.events.emit('destinations-changed');
  }

  private async check(
    input: DestinationInput,
    id: number | null,
  ): Promise<CommandResult<CheckedDestination>> {
    const errors: FieldErrors = {};
    const slug = input.slug.trim().toLowerCase();
    if (!input.display_name.trim()) errors.display_name = 'A destination needs a name.';
    if (!SLUG.test(slug)) errors.slug = 'Lower-case letters, digits and hyphens, like "my-library".';
    else if (await slugTaken(this.db, slug, id))
      errors.slug = 'Another destination uses this slug (or used it).';
    if (!isDestinationGroup(input.group)) errors.group = `One of: ${DESTINATION_GROUPS.join(', ')}.`;
    for (const name of ['base_url', 'icon_url'] as const) {
      if (input[name].trim() && !isHttpUrl(input[name].trim())) errors[name] = 'Use an http(s) address.';
    }
    if (input.brand_color.trim() && !COLOR.test(input.brand_color.trim()))
      errors.brand_color = 'A colour like #2646a6.';
    const template = input.url_template.trim();
    if (template && isDestinationGroup(input.group)) {
      const problems = templateProblems(template, input.group);
      if (problems.length > 0) errors.url_template = problems.join('; ');
    }
    if (!/^[A-Za-z0-9_.-]{0,50}$/.test(input.affiliate_param.trim()))
      errors.affiliate_param = 'A query parameter name.';
    const countries = checkCountries(input.countries);
    if ('error' in countries) errors.countries = countries.error;
    const storefronts = checkStorefronts(
      input.storefronts,
      isDestinationGroup(input.group) ? input.group : 'new',
    );
    if ('error' in storefronts) errors.storefronts = storefronts.error;
    if (Object.keys(errors).length > 0 || 'error' in countries || 'error' in storefronts)
      return invalid(errors);
    const columns: DestinationColumns = {
      slug,
      display_name: input.display_name.trim(),
      short_name: input.short_name.trim(),
      description: input.description.trim(),
      group_name: input.group,
      url_template: template,
      base_url: input.base_url.trim(),
      icon_url: input.icon_url.trim(),
      brand_color: input.brand_color.trim(),
      display_priority: input.display_priority,
      is_active: input.is_active ? 1 : 0,
      is_public: input.is_public ? 1 : 0,
      affiliate_param: input.affiliate_param.trim(),
      affiliate_tag: input.affiliate_tag.trim(),
      countries: countries.value,
    };
    return ok({ columns, storefronts: storefronts.value });
  }
}

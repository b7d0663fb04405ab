import { isValidCountry, isValidTag, normalisePartnerId, type PartnerTag } from '../../domain/partners.js';
import { addDays, dayOf } from '../../store/analytics.js';
import { listApiKeys } from '../../store/api-keys.js';
import type { AuditEntry } from '../../store/audit.js';
import { listAllDestinations } from '../../store/destinations.js';
import { partnerClickCounts } from '../../store/partner-analytics.js';
import {
  deletePartnerTag,
  findPartner,
  insertPartner,
  listPartners,
  type Partner,
  type PartnerFields,
  updatePartner,
  upsertPartnerTag,
} from '../../store/partners.js';
import type { Db } from '../../store/schema.js';
import type { ChangeEvents } from '../change-events.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';

export type { Partner } from '../../store/partners.js';

export interface PartnerInput {
  name: string;
  contact: string;
  isActive: boolean;
  /** '' for none. */
  apiKeyId: number | null;
}

export interface PartnersOverview {
  partners: Partner[];
  destinations: Array<{ slug: string; name: string }>;
  apiKeys: Array<{ id: number; label: string }>;
}

const fieldsOf = (input: PartnerInput): PartnerFields => ({
  name: input.name.trim(),
  contact: input.contact.trim(),
  isActive: input.isActive,
  apiKeyId: input.apiKeyId,
});

export interface TagInput {
  destinationSlug: string;
  /** '' for the destination's own storefront. */
  country: string;
  tag: string;
}

export interface PartnerDetail {
  partner: Partner;
  overview: PartnersOverview;
  days: number;
  byDestination: Array<{ key: string; label: string; clicks: number }>;
  bySrc: Array<{ key: string; clicks: number }>;
  total: number;
}

/** A value for a CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
const csvCell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** An audit row of a partner's change, less the partner it names. */
type PartnerEntry = Omit<AuditEntry, 'entityType' | 'entityId'>;

/**
 * Partners and their affiliate tags. Every change calls `changed` (built in the container: it drops
 * the cached partner lookups and resolved `/go/` targets, which carry tags).
 */
export class AdminPartners extends AdminArea {
  constructor(
    db: Db,
    events: ChangeEvents,
    private readonly changed: () => void,
  ) {
    super(db, events);
  }

  async overview(): Promise<PartnersOverview> {
    const [partners, destinations, keys] = await Promise.all([
      listPartners(this.db),
      listAllDestinations(this.db),
      listApiKeys(this.db),
    ]);
    return {
      partners,
      destinations: destinations.map((d) => ({ slug: d.slug, name: d.displayName })),
      apiKeys: keys
        .filter((key) => !key.revokedAt)
        .map((key) => ({ id: key.id, label: `${key.name} (${key.prefix}…)` })),
    };
  }

  /** One partner with its clicks over the last `days` days, by destination and by placement. */
  async detail(id: string, days: number): Promise<PartnerDetail | null> {
    const partner = await findPartner(this.db, id);
    if (!partner) return null;
    const from = `${addDays(dayOf(new Date()), 1 - days)}T00:00:00.000Z`;
    const [overview, destinations, bySrc] = await Promise.all([
      this.overview(),
      partnerClickCounts(this.db, id, 'destination', from),
      partnerClickCounts(this.db, id, 'src', from),
    ]);
    const names = new Map((await listAllDestinations(this.db)).map((d) => [String(d.id), d.displayName]));
    const byDestination = destinations.map((row) => ({
      ...row,
      label: names.get(row.key) ?? `Destination ${row.key}`,
    }));
    return {
      partner,
      overview,
      days,
      byDestination,
      bySrc,
      total: byDestination.reduce((sum, row) => sum + row.clicks, 0),
    };
  }

  /** CSV of one partner's clicks by destination, for the partner's statement; null: no such partner. */
  async csv(id: string, days: number): Promise<string | null> {
    const detail = await this.detail(id, days);
    if (!detail) return null;
    const lines = [
      'partner,destination,label,clicks',
      ...detail.byDestination.map((row) => [id, row.key, row.label, row.clicks].map(csvCell).join(',')),
    ];
    return `${lines.join('\n')}\n`;
  }

  async create(actor: AuditActor, rawId: string, input: PartnerInput): Promise<CommandResult<string>> {
    const id = normalisePartnerId(rawId);
    const errors = await this.checkFields(input);
    if (!id)
      errors.id = 'Use lower-case letters, digits, - and _ (up to 50), starting with a letter or digit.';
    else if (await findPartner(this.db, id)) errors.id = 'A partner with this id exists.';
    if (!id || Object.keys(errors).length > 0) return invalid(errors);
    const fields = fieldsOf(input);
    await this.change(actor, id, (trx) => insertPartner(trx, id, fields), {
      action: 'partner.create',
      after: fields,
    });
    return ok(id);
  }

  /** null: there is no partner with this id. */
  async edit(actor: AuditActor, id: string, input: PartnerInput): Promise<CommandResult | null> {
    const before = await findPartner(this.db, id);
    if (!before) return null;
    const errors = await this.checkFields(input);
    if (Object.keys(errors).length > 0) return invalid(errors);
    const fields = fieldsOf(input);
    await this.change(actor, id, (trx) => updatePartner(trx, id, fields), {
      action: 'partner.update',
      before: {
        name: before.name,
        contact: before.contact,
        isActive: before.isActive,
        apiKeyId: before.apiKeyId,
      },
      after: fields,
    });
    return ok(undefined);
  }

  /** null: there is no partner with this id. */
  async setTag(actor: AuditActor, id: string, input: TagInput): Promise<CommandResult | null> {
    const partner = await findPartner(this.db, id);
    if (!partner) return null;
    const errors: FieldErrors = {};
    const destinations = await listAllDestinations(this.db);
    const slug = input.destinationSlug.trim().toLowerCase();
    if (!destinations.some((d) => d.slug === slug)) errors.destination_slug = 'Choose a destination.';
    const country = input.country.trim().toUpperCase();
    if (country && !isValidCountry(country))
      errors.country = 'Use a two-letter country code such as GB, or leave empty.';
    const tag = input.tag.trim();
    if (!isValidTag(tag)) errors.tag = 'Letters, digits, . _ ~ and - only (up to 100).';
    if (Object.keys(errors).length > 0) return invalid(errors);
    const value: PartnerTag = { destinationSlug: slug, country: country || null, tag };
    const before =
      partner.tags.find((t) => t.destinationSlug === slug && t.country === value.country) ?? null;
    await this.change(actor, id, (trx) => upsertPartnerTag(trx, id, value), {
      action: 'partner.tag.set',
      before,
      after: value,
    });
    return ok(undefined);
  }

  async removeTag(actor: AuditActor, id: string, destinationSlug: string, country: string): Promise<boolean> {
    const storefront = country.trim().toUpperCase() || null;
    return this.change(
      actor,
      id,
      (trx) => deletePartnerTag(trx, id, destinationSlug, storefront),
      (done) =>
        done ? { action: 'partner.tag.remove', before: { destinationSlug, country: storefront } } : null,
    );
  }

  /** One partner's change: audited against the partner, then `changed` (so cached partner lookups go). */
  private async change<T>(
    actor: AuditActor,
    id: string,
    change: (trx: Db) => Promise<T>,
    entry: PartnerEntry | ((value: T) => PartnerEntry | null),
  ): Promise<T> {
    const row = (value: T) => {
      const found = typeof entry === 'function' ? entry(value) : entry;
      return found && { ...found, entityType: 'partner', entityId: id };
    };
    const value = await this.audited(actor, change, row);
    this.changed();
    return value;
  }

  private async checkFields(input: PartnerInput): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    if (!input.name.trim()) errors.name = 'Name the partner.';
    if (input.apiKeyId !== null) {
      const keys = await listApiKeys(this.db);
      if (!keys.some((key) => key.id === input.apiKeyId && !key.revokedAt))
        errors.api_key_id = 'Choose an active API key.';
    }
    return errors;
  }
}

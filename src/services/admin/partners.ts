import { isValidCountry, isValidTag, normalisePartnerId, type PartnerTag } from '../../domain/partners.js';
import { addDays, dayOf } from '../../store/analytics.js';
import { listApiKeys } from '../../store/api-keys.js';
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
import {
  AdminArea,
  type AuditActor,
  audited,
  type CommandContext,
  type CommandResult,
  type FieldErrors,
  invalid,
  ok,
} from './commands.js';

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

export async function partnersOverview(ctx: Pick<CommandContext, 'db'>): Promise<PartnersOverview> {
  const db = ctx.db;
  const [partners, destinations, keys] = await Promise.all([
    listPartners(db),
    listAllDestinations(db),
    listApiKeys(db),
  ]);
  return {
    partners,
    destinations: destinations.map((d) => ({ slug: d.slug, name: d.displayName })),
    apiKeys: keys
      .filter((key) => !key.revokedAt)
      .map((key) => ({ id: key.id, label: `${key.name} (${key.prefix}…)` })),
  };
}

async function checkFields(ctx: CommandContext, input: PartnerInput): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!input.name.trim()) errors.name = 'Name the partner.';
  if (input.apiKeyId !== null) {
    const keys = await listApiKeys(ctx.db);
    if (!keys.some((key) => key.id === input.apiKeyId && !key.revokedAt))
      errors.api_key_id = 'Choose an active API key.';
  }
  return errors;
}

const fieldsOf = (input: PartnerInput): PartnerFields => ({
  name: input.name.trim(),
  contact: input.contact.trim(),
  isActive: input.isActive,
  apiKeyId: input.apiKeyId,
});

export async function createPartner(
  ctx: CommandContext,
  rawId: string,
  input: PartnerInput,
): Promise<CommandResult<string>> {
  const id = normalisePartnerId(rawId);
  const errors = await checkFields(ctx, input);
  if (!id) errors.id = 'Use lower-case letters, digits, - and _ (up to 50), starting with a letter or digit.';
  else if (await findPartner(ctx.db, id)) errors.id = 'A partner with this id exists.';
  if (!id || Object.keys(errors).length > 0) return invalid(errors);
  const fields = fieldsOf(input);
  await audited(ctx, (trx) => insertPartner(trx, id, fields), {
    action: 'partner.create',
    entityType: 'partner',
    entityId: id,
    after: fields,
  });
  return ok(id);
}

export async function editPartner(
  ctx: CommandContext,
  id: string,
  input: PartnerInput,
): Promise<CommandResult<undefined> | null> {
  const before = await findPartner(ctx.db, id);
  if (!before) return null;
  const errors = await checkFields(ctx, input);
  if (Object.keys(errors).length > 0) return invalid(errors);
  const fields = fieldsOf(input);
  await audited(ctx, (trx) => updatePartner(trx, id, fields), {
    action: 'partner.update',
    entityType: 'partner',
    entityId: id,
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

export interface TagInput {
  destinationSlug: string;
  /** '' for the destination's own storefront. */
  country: string;
  tag: string;
}

export async function setPartnerTag(
  ctx: CommandContext,
  id: string,
  input: TagInput,
): Promise<CommandResult<undefined> | null> {
  const db = ctx.db;
  const partner = await findPartner(db, id);
  if (!partner) return null;
  const errors: FieldErrors = {};
  const destinations = await listAllDestinations(db);
  const slug = input.destinationSlug.trim().toLowerCase();
  if (!destinations.some((d) => d.slug === slug)) errors.destination_slug = 'Choose a destination.';
  const country = input.country.trim().toUpperCase();
  if (country && !isValidCountry(country))
    errors.country = 'Use a two-letter country code such as GB, or leave empty.';
  const tag = input.tag.trim();
  if (!isValidTag(tag)) errors.tag = 'Letters, digits, . _ ~ and - only (up to 100).';
  if (Object.keys(errors).length > 0) return invalid(errors);
  const value: PartnerTag = { destinationSlug: slug, country: country || null, tag };
  const before = partner.tags.find((t) => t.destinationSlug === slug && t.country === value.country) ?? null;
  await audited(ctx, (trx) => upsertPartnerTag(trx, id, value), {
    action: 'partner.tag.set',
    entityType: 'partner',
    entityId: id,
    before,
    after: value,
  });
  return ok(undefined);
}

export async function removePartnerTag(
  ctx: CommandContext,
  id: string,
  destinationSlug: string,
  country: string,
): Promise<boolean> {
  const storefront = country.trim().toUpperCase() || null;
  return audited(
    ctx,
    (trx) => deletePartnerTag(trx, id, destinationSlug, storefront),
    (removed) =>
      removed
        ? {
            action: 'partner.tag.remove',
            entityType: 'partner',
            entityId: id,
            before: { destinationSlug, country: storefront },
          }
        : null,
  );
}

export interface PartnerDetail {
  partner: Partner;
  overview: PartnersOverview;
  days: number;
  byDestination: Array<{ key: string; label: string; clicks: number }>;
  bySrc: Array<{ key: string; clicks: number }>;
  total: number;
}

/** One partner with its clicks over the last `days` days, by destination and by placement. */
export async function partnerDetail(
  ctx: Pick<CommandContext, 'db'>,
  id: string,
  days: number,
  now = new Date(),
): Promise<PartnerDetail | null> {
  const db = ctx.db;
  const partner = await findPartner(db, id);
  if (!partner) return null;
  const from = `${addDays(dayOf(now), 1 - days)}T00:00:00.000Z`;
  const [overview, destinations, bySrc] = await Promise.all([
    partnersOverview(ctx),
    partnerClickCounts(db, id, 'destination', from),
    partnerClickCounts(db, id, 'src', from),
  ]);
  const names = new Map((await listAllDestinations(db)).map((d) => [String(d.id), d.displayName]));
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

/** CSV of one partner's clicks by destination, for the partner's statement. */
export async function partnerCsv(
  ctx: Pick<CommandContext, 'db'>,
  id: string,
  days: number,
): Promise<string | null> {
  const detail = await partnerDetail(ctx, id, days);
  if (!detail) return null;
  const cell = (value: string | number) => {
    const text = String(value);
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = [
    'partner,destination,label,clicks',
    ...detail.byDestination.map((row) => [id, row.key, row.label, row.clicks].map(cell).join(',')),
  ];
  return `${lines.join('\n')}\n`;
}

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

  overview(): Promise<PartnersOverview> {
    return partnersOverview({ db: this.db });
  }

  detail(id: string, days: number): Promise<PartnerDetail | null> {
    return partnerDetail({ db: this.db }, id, days);
  }

  /** null: there is no partner with this id. */
  csv(id: string, days: number): Promise<string | null> {
    return partnerCsv({ db: this.db }, id, days);
  }

  async create(actor: AuditActor, id: string, input: PartnerInput): Promise<CommandResult<string>> {
    return this.afterSuccess(await createPartner(this.as(actor), id, input));
  }

  /** null: there is no partner with this id. */
  async edit(actor: AuditActor, id: string, input: PartnerInput): Promise<CommandResult | null> {
    return this.afterSuccess(await editPartner(this.as(actor), id, input));
  }

  /** null: there is no partner with this id. */
  async setTag(actor: AuditActor, id: string, input: TagInput): Promise<CommandResult | null> {
    return this.afterSuccess(await setPartnerTag(this.as(actor), id, input));
  }

  async removeTag(actor: AuditActor, id: string, destinationSlug: string, country: string): Promise<boolean> {
    const removed = await removePartnerTag(this.as(actor), id, destinationSlug, country);
    this.changed();
    return removed;
  }

  private afterSuccess<T extends CommandResult<unknown> | null>(result: T): T {
    if (result?.ok) this.changed();
    return result;
  }
}

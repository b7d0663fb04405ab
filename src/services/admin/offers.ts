import { OFFER_SOURCES, type OfferSource } from '../../domain/offers.js';
import { disabledOfferSources, writeDisabledOfferSources } from '../../store/offers.js';
import type { Db } from '../../store/schema.js';
import type { ChangeEvents } from '../change-events.js';
import { AdminArea, type AuditActor, type CommandResult, invalid, ok } from './commands.js';

/** One offer source as the admin's switches show it. */
export interface OfferSourceSetting {
  source: OfferSource;
  /** `OFFER_SOURCES` and `PROVIDERS` name it: the switch can turn it on. */
  configured: boolean;
  /** The admin left it on (the default). */
  enabled: boolean;
}

/** The admin's switches of the offer sources (issue 47); each change is audited and reaches every instance. */
export class AdminOffers extends AdminArea {
  constructor(
    db: Db,
    events: ChangeEvents,
    private readonly configured: readonly OfferSource[],
  ) {
    super(db, events);
  }

  async settings(): Promise<OfferSourceSetting[]> {
    const disabled = new Set(await disabledOfferSources(this.db));
    return OFFER_SOURCES.map((source) => ({
      source,
      configured: this.configured.includes(source),
      enabled: !disabled.has(source),
    }));
  }

  /** `enabled`: the sources left on; every other one is switched off. */
  async save(actor: AuditActor, enabled: readonly string[]): Promise<CommandResult> {
    const unknown = enabled.filter((name) => !(OFFER_SOURCES as readonly string[]).includes(name));
    if (unknown.length > 0) return invalid({ sources: `Unknown source: ${unknown.join(', ')}` });
    const disabled = OFFER_SOURCES.filter((source) => !enabled.includes(source));
    await this.audited(
      actor,
      async (trx) => {
        const before = await disabledOfferSources(trx);
        await writeDisabledOfferSources(trx, disabled);
        return before;
      },
      (before) => ({
        action: 'offers.sources',
        entityType: 'settings',
        entityId: 'offer-sources',
        before: { disabled: before },
        after: { disabled },
      }),
    );
    // The buttons change with the sources: every instance drops its pages and reads the switches again.
    this.events.emit('destinations-changed');
    return ok(undefined);
  }
}

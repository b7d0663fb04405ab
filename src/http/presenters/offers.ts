import { Type } from 'typebox';
import type { Offer } from '../../domain/offers.js';
import { offerView } from './book-page.js';

/** An offer as the links API and the embed's JSON carry it (issue 47). */
export interface OfferJson {
  state: Exclude<Offer['state'], 'not_for_sale'>;
  /** Worded for the caller's language and country: "£7.99", "Free", "Borrow now". */
  text: string;
  amount: number | null;
  currency: string | null;
  source: Offer['source'];
  /** When it was read (ISO 8601); offers older than `OFFER_TTL` are never given. */
  read_at: string;
  /** "Price as of 2 Dec 2026", for the button's description. */
  as_of: string;
}

export const OfferSchema = Type.Union(
  [
    Type.Object(
      {
        state: Type.Union(
          [
            Type.Literal('for_sale'),
            Type.Literal('free'),
            Type.Literal('borrow_now'),
            Type.Literal('waitlist'),
            Type.Literal('read_free'),
          ],
          {
            description:
              'for_sale (a price is known), free, borrow_now, waitlist (Open Library: join the waitlist), read_free',
          },
        ),
        text: Type.String({
          description: 'For people, in the caller’s language and country',
          examples: ['£7.99'],
        }),
        amount: Type.Union([Type.Number(), Type.Null()], {
          description: 'In the currency’s major unit',
          examples: [7.99],
        }),
        currency: Type.Union([Type.String(), Type.Null()], { description: 'ISO 4217', examples: ['GBP'] }),
        source: Type.Union(
          [Type.Literal('googlebooks'), Type.Literal('itunes'), Type.Literal('openlibrary')],
          {
            description: 'Where it was read',
          },
        ),
        read_at: Type.String({ description: 'When it was read (ISO 8601)' }),
        as_of: Type.String({
          description: 'When it was read, for people',
          examples: ['Price as of Dec 2, 2026'],
        }),
      },
      { description: 'What the store asks or the library lends, as last read' },
    ),
    Type.Null(),
  ],
  {
    description:
      'The price or lending state for the country, read in the background from the store’s or library’s own API; null when none is known or the last one is older than OFFER_TTL',
  },
);

export function offerJson(offer: Offer | null | undefined, country: string | null): OfferJson | null {
  const view = offer ? offerView(offer, country) : null;
  if (!offer || !view) return null;
  return {
    state: view.state === 'not_for_sale' ? 'for_sale' : view.state,
    text: view.text,
    amount: view.amount,
    currency: view.currency,
    source: offer.source,
    read_at: offer.readAt,
    as_of: view.asOf,
  };
}

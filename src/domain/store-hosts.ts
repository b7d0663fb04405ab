/**
 * The country hosts of the international stores, host → the country it sells to: one list, which the
 * retailer-URL parser reads (retailer-urls/) and the seeded storefronts are checked against (every
 * storefront's host must be one of these, test/integration/template-round-trip.test.ts). The
 * storefronts themselves are data (`destination_storefronts`), edited with their destination.
 */

/** Every Amazon storefront and the country it sells to. */
export const AMAZON_HOSTS: Readonly<Record<string, string>> = {
  'amazon.com': 'US',
  'amazon.co.uk': 'GB',
  'amazon.de': 'DE',
  'amazon.fr': 'FR',
  'amazon.it': 'IT',
  'amazon.es': 'ES',
  'amazon.ca': 'CA',
  'amazon.com.au': 'AU',
  'amazon.co.jp': 'JP',
  'amazon.in': 'IN',
  'amazon.com.mx': 'MX',
  'amazon.com.br': 'BR',
  'amazon.nl': 'NL',
  'amazon.se': 'SE',
  'amazon.pl': 'PL',
  'amazon.com.tr': 'TR',
  'amazon.ae': 'AE',
  'amazon.sa': 'SA',
  'amazon.sg': 'SG',
  'amazon.com.be': 'BE',
  'amazon.eg': 'EG',
  'amazon.ie': 'IE',
  'amazon.co.za': 'ZA',
  'amazon.cn': 'CN',
};

/** Every Audible storefront and the country it sells to. */
export const AUDIBLE_HOSTS: Readonly<Record<string, string>> = {
  'audible.com': 'US',
  'audible.co.uk': 'GB',
  'audible.de': 'DE',
  'audible.fr': 'FR',
  'audible.it': 'IT',
  'audible.es': 'ES',
  'audible.ca': 'CA',
  'audible.com.au': 'AU',
  'audible.co.jp': 'JP',
  'audible.in': 'IN',
  'audible.com.br': 'BR',
};

/**
 * The operator's brand: the name, logo, accent colours and texts every page, the embed and the
 * discovery documents show. Pure rules: defaults, validation, WCAG contrast, logo type sniffing.
 */

export interface BrandLogo {
  /** Content hash (hex): the logo's URL carries it, so it can be cached for a year. */
  hash: string;
  contentType: LogoType;
}

export interface Brand {
  siteName: string;
  logo: BrandLogo | null;
  /** `#rrggbb` for the light theme, or null for the stylesheet's own. */
  accentLight: string | null;
  /** `#rrggbb` for the dark theme, or null for the stylesheet's own. */
  accentDark: string | null;
  /** The affiliate disclosure shown in every page's footer and under the embed. */
  disclosure: string;
  /** BCP 47 primary language (`en`), or null: the merger wires it into language negotiation. */
  defaultLanguage: string | null;
  /** ISO 3166-1 alpha-2 (`GB`), or null. */
  defaultCountry: string | null;
  /** Shown in `/developers.md`, `/llms.txt` and the OpenAPI info; null falls back to CONTACT_EMAIL. */
  contactEmail: string | null;
}

export const DEFAULT_SITE_NAME = 'Booklink';
export const DEFAULT_DISCLOSURE = 'Some links earn this site a small commission, at no cost to you.';

export const DEFAULT_BRAND: Readonly<Brand> = Object.freeze({
  siteName: DEFAULT_SITE_NAME,
  logo: null,
  accentLight: null,
  accentDark: null,
  disclosure: DEFAULT_DISCLOSURE,
  defaultLanguage: null,
  defaultCountry: null,
  contactEmail: null,
});

/**
 * The backgrounds an accent colour is read on, per theme (web/styles.css: `--bg` and `--surface`).
 * One colour cannot reach 4.5:1 on both a near-white and a near-black background (the best is about
 * 4.3:1), so each theme has its own accent.
 */
export const THEME_BACKGROUNDS = {
  light: ['#f7f6f3', '#ffffff'],
  dark: ['#121315', '#1b1c1f'],
} as const;

export const MIN_CONTRAST = 4.5;
export const MAX_LOGO_BYTES = 200 * 1024;
export const MAX_SITE_NAME = 60;
export const MAX_DISCLOSURE = 300;

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** `#abc`, `abc`, `#AABBCC` → `#aabbcc`; null when it is not a hex colour. */
export function normaliseHexColour(value: string): string | null {
  const match = HEX.exec(value.trim());
  if (!match?.[1]) return null;
  const digits = match[1].toLowerCase();
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return `#${full}`;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance of `#rrggbb`. */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The lowest contrast of `colour` against a theme's backgrounds. */
export function themeContrast(colour: string, theme: keyof typeof THEME_BACKGROUNDS): number {
  return Math.min(...THEME_BACKGROUNDS[theme].map((bg) => contrastRatio(colour, bg)));
}

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp';

export const LOGO_EXTENSIONS: Readonly<Record<LogoType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/**
 * The image type by its first bytes (never by its name or declared type). SVG is refused: it can
 * carry script, and sanitising it safely is more than a logo is worth.
 */
export function sniffLogoType(bytes: Uint8Array): LogoType | null {
  const starts = (sig: readonly number[], at = 0) => sig.every((byte, i) => bytes[at + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/** The logo's path on this origin: `/brand/logo-<hash>.<ext>`. */
export function logoPath(logo: BrandLogo): string {
  return `/brand/logo-${logo.hash}.${LOGO_EXTENSIONS[logo.contentType]}`;
}

/** The accent stylesheet: custom properties for both themes (served from our origin: the CSP allows no inline style). */
export function brandStylesheet(brand: Pick<Brand, 'accentLight' | 'accentDark'>): string {
  const rules: string[] = [];
  // Each theme's rule only where that theme applies: the light one must not override the
  // stylesheet's dark accent when the operator set no dark one. `--brand-accent*` feed the embed.
  if (brand.accentLight) {
    const c = brand.accentLight;
    rules.push(`:root { --brand-accent: ${c}; }`);
    rules.push(`@media not (prefers-color-scheme: dark) { :root { --accent: ${c}; --focus: ${c}; } }`);
  }
  if (brand.accentDark) {
    const c = brand.accentDark;
    rules.push(`:root { --brand-accent-dark: ${c}; }`);
    rules.push(`@media (prefers-color-scheme: dark) { :root { --accent: ${c}; --focus: ${c}; } }`);
  }
  return `${rules.join('\n')}\n`;
}

/** A short version of the accent colours for the stylesheet's URL, or null when there is nothing to serve. */
export function accentVersion(brand: Pick<Brand, 'accentLight' | 'accentDark'>): string | null {
  if (!brand.accentLight && !brand.accentDark) return null;
  return `${(brand.accentLight ?? '').slice(1)}-${(brand.accentDark ?? '').slice(1)}`;
}

/** `/brand/theme-<light>-<dark>.css`, or null when neither theme has an accent of the operator's. */
export function brandStylesheetPath(brand: Pick<Brand, 'accentLight' | 'accentDark'>): string | null {
  const version = accentVersion(brand);
  return version ? `/brand/theme-${version}.css` : null;
}

/** The inverse of `brandStylesheetPath`'s version: the two colours, or null when malformed. */
export function parseAccentVersion(version: string): Pick<Brand, 'accentLight' | 'accentDark'> | null {
  const match = /^([0-9a-f]{6})?-([0-9a-f]{6})?$/.exec(version);
  if (!match || (!match[1] && !match[2])) return null;
  return {
    accentLight: match[1] ? `#${match[1]}` : null,
    accentDark: match[2] ? `#${match[2]}` : null,
  };
}

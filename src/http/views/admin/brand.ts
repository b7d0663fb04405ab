import { logoPath, MAX_LOGO_BYTES, MIN_CONTRAST } from '../../../domain/brand.js';
import type { Brand } from '../../../services/brand.js';
import { html, type SafeHtml } from '../html.js';
import { type FormErrors, type FormValues, field, formError, textarea } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface BrandFormState {
  values: FormValues;
  errors: FormErrors;
}

export interface BrandModel {
  brand: Brand;
  /** The settings form refilled after an error; else the stored brand. */
  form?: BrandFormState;
  /** The logo form's error. */
  logo?: BrandFormState;
  notice: string | null;
}

/** The stored brand as the form shows it. */
export function brandFormValues(brand: Brand): FormValues {
  return {
    site_name: brand.siteName,
    accent_light: brand.accentLight ?? '',
    accent_dark: brand.accentDark ?? '',
    disclosure: brand.disclosure,
    default_language: brand.defaultLanguage ?? '',
    default_country: brand.defaultCountry ?? '',
    contact_email: brand.contactEmail ?? '',
  };
}

function swatch(colour: string | null): SafeHtml {
  return colour ? html`<span class="swatch" data-swatch="${colour}"></span>` : html``;
}

function logoSection(viewer: AdminViewer, brand: Brand, form: BrandFormState | undefined): SafeHtml {
  const errors = form?.errors ?? {};
  return html`<section class="panel"><header class="panel__head"><h2>Logo</h2></header>
  ${
    brand.logo
      ? html`<p class="brand-preview"><img class="brand__logo" src="${logoPath(brand.logo)}" alt="The current logo" height="28"></p>
  <form method="post" action="/admin/brand/logo/remove" class="inline-form">${csrfField(viewer)}<button type="submit" class="button button--small button--quiet">Remove the logo</button></form>`
      : html`<p class="muted">No logo: pages show the default mark before the site name.</p>`
  }
  <form method="post" action="/admin/brand/logo" enctype="multipart/form-data" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    <div class="field${errors.logo ? ' field--invalid' : ''}">
      <label for="f-logo">Upload a logo</label>
      <input id="f-logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" required>
      <p class="field__hint">PNG, JPEG or WebP, ${MAX_LOGO_BYTES / 1024} kB at most, shown 28 px high. SVG is not accepted.</p>
      ${errors.logo && html`<p class="field__error" id="f-logo-error">${errors.logo}</p>`}
    </div>
    <button type="submit" class="button">Upload</button>
  </form>
</section>`;
}

export function renderBrand(viewer: AdminViewer, model: BrandModel): string {
  const { brand } = model;
  const form = model.form ?? { values: brandFormValues(brand), errors: {} };
  const body = html`<div class="page-head"><h1>Brand</h1></div>
<p class="muted">Your name, logo, colours and texts on every page, the embed, link previews, <code>/developers.md</code>, <code>/llms.txt</code> and the API reference. A change shows on every instance at once.</p>
<section class="panel"><header class="panel__head"><h2>Settings</h2></header>
  ${formError(form.errors)}
  <form method="post" action="/admin/brand" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${field('Site name', 'site_name', form.values, form.errors, { maxlength: 60, placeholder: 'Booklink' })}
    ${field('Accent colour, light theme', 'accent_light', form.values, form.errors, {
      maxlength: 7,
      placeholder: '#2646a6',
      hint: `Links and buttons. At least ${MIN_CONTRAST}:1 contrast on the light backgrounds; empty keeps the default.`,
    })}
    ${swatch(brand.accentLight)}
    ${field('Accent colour, dark theme', 'accent_dark', form.values, form.errors, {
      maxlength: 7,
      placeholder: '#9fb5ff',
      hint: `At least ${MIN_CONTRAST}:1 on the dark backgrounds (no one colour reaches it on both themes).`,
    })}
    ${swatch(brand.accentDark)}
    ${textarea('Affiliate disclosure (every page footer and the embed)', 'disclosure', form.values, form.errors, 2)}
    ${field('Default language', 'default_language', form.values, form.errors, { maxlength: 2, placeholder: 'en', hint: 'ISO 639-1, for readers whose browser asks for none we offer.' })}
    ${field('Default country', 'default_country', form.values, form.errors, { maxlength: 2, placeholder: 'GB', hint: 'ISO 3166-1 alpha-2: the storefront for readers whose country is unknown.' })}
    ${field('Contact email', 'contact_email', form.values, form.errors, { type: 'email', maxlength: 200, hint: 'In the developer guide, llms.txt and the API reference; empty uses CONTACT_EMAIL.' })}
    <button type="submit" class="button">Save</button>
  </form>
</section>
${logoSection(viewer, brand, model.logo)}`;
  return renderAdminPage({ title: 'Brand', viewer, section: 'brand', notice: model.notice, body });
}

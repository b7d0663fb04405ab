import type { OfferSourceSetting } from '../../../services/admin/offers.js';
import { html, type SafeHtml } from '../html.js';
import { type FormErrors, formError } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

/** The names the admin area gives the offer sources. */
const SOURCE_NAMES: Readonly<Record<string, string>> = {
  googlebooks: 'Google Books (Google Play prices)',
  itunes: 'iTunes (Apple Books ebook and audiobook prices)',
  openlibrary: 'Open Library (borrowing)',
};

export interface OfferSettingsModel {
  sources: readonly OfferSourceSetting[];
  errors?: FormErrors;
  notice: string | null;
  ttlHours: number;
}

function sourceRow(setting: OfferSourceSetting): SafeHtml {
  const id = `offer-${setting.source}`;
  const checked = setting.enabled ? html` checked` : html``;
  const note = setting.configured
    ? html``
    : html` <span class="muted">(not read: <code>OFFER_SOURCES</code> or <code>PROVIDERS</code> leaves it out)</span>`;
  return html`<div class="field field--check"><input type="checkbox" id="${id}" name="source_${setting.source}" value="on"${checked}>
  <label for="${id}">${SOURCE_NAMES[setting.source] ?? setting.source}</label>${note}</div>`;
}

/** `/admin/offers`: which sources the book pages' prices and lending state are read from. */
export function renderOfferSettings(viewer: AdminViewer, model: OfferSettingsModel): string {
  const body = html`<div class="page-head"><h1>Offers</h1></div>
<p class="muted">Prices and lending state on the book pages’ buttons, read in the background (never while a page waits) and shown for ${model.ttlHours} hours after they were read (<code>OFFER_TTL</code>). A source switched off is not asked again; what it gave is no longer shown once it is older than that.</p>
<section class="panel"><header class="panel__head"><h2>Sources</h2></header>
  ${formError(model.errors ?? {})}
  <form method="post" action="/admin/offers" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${model.sources.map(sourceRow)}
    <button type="submit" class="button">Save</button>
  </form>
</section>`;
  return renderAdminPage({ title: 'Offers', viewer, section: 'offers', notice: model.notice, body });
}

export interface OfferReadView {
  source: string;
  country: string;
  readAt: string | null;
  lastError: string | null;
}

/** The book's admin page: when each source was last read for it, per country. */
export function offerReadsSection(reads: readonly OfferReadView[] | undefined): SafeHtml {
  const rows = [...(reads ?? [])].sort(
    (a, b) => a.source.localeCompare(b.source) || a.country.localeCompare(b.country),
  );
  return html`<section class="panel" id="offers" aria-labelledby="offers-title">
  <header class="panel__head"><h2 id="offers-title">Offers last read</h2><a class="small" href="/admin/offers">Sources</a></header>
  ${
    rows.length === 0
      ? html`<p class="muted">Not read yet: a reader’s visit queues the first read.</p>`
      : html`<table class="data"><thead><tr><th>Source</th><th>Country</th><th>Read</th></tr></thead><tbody>${rows.map(
          (row) =>
            html`<tr data-offer-source="${row.source}"><td>${SOURCE_NAMES[row.source] ?? row.source}</td><td>${row.country === '*' ? 'all' : row.country}</td><td>${row.readAt ? html`<time datetime="${row.readAt}">${row.readAt.slice(0, 16).replace('T', ' ')} UTC</time>` : html`<span class="muted">never</span>`}${row.lastError && html` <span class="muted">(last try: ${row.lastError})</span>`}</td></tr>`,
        )}</tbody></table>`
  }
</section>`;
}

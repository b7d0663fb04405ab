import { html, type SafeHtml } from '../html.js';
import { type BookPageModel, bookSection } from './book-model.js';
import { actionButton, checkbox, field, formError, select } from './form.js';
import { type AdminViewer, csrfField } from './layout.js';

const windowText = (from: string | null, until: string | null) =>
  from || until ? `${from ?? '…'} → ${until ?? '…'}` : 'always';

export function linksSection(viewer: AdminViewer, model: BookPageModel): SafeHtml {
  const options = [
    { value: '', label: 'Choose…' },
    ...model.destinations.map((d) => ({ value: String(d.id), label: `${d.displayName} (${d.group})` })),
  ];
  return bookSection(
    model,
    { id: 'links', title: 'Curated destination links', form: 'link', defaults: { is_featured: true } },
    ({ base, values, errors, add }) => html`${
      model.links.length === 0
        ? html`<p class="muted">No curated links: the page uses each destination's template.</p>`
        : html`<table class="data"><thead><tr><th>Destination</th><th>Label / tagline</th><th>Window</th><th></th></tr></thead><tbody>
      ${model.links.map(
        (link) => html`<tr>
        <td>${link.destinationName}${link.isFeatured ? html` <span class="tag">featured</span>` : ''}<br><span class="mono small">${link.url || 'template URL'}</span></td>
        <td>${link.label}${link.tagline ? html`<br><span class="muted small">${link.tagline}</span>` : ''}</td>
        <td class="small">${windowText(link.activeFrom, link.activeUntil)}</td>
        <td>${actionButton(viewer, `${base}/links/remove`, 'link_id', link.id, 'Remove')}</td></tr>`,
      )}</tbody></table>`
    }
  ${add(
    viewer,
    { summary: 'Add a destination link', action: '/links', submit: 'Add link' },
    html`${select('Destination', 'destination_id', options, values, errors)}
    ${field('URL (empty: the template URL)', 'url', values, errors, { type: 'url', maxlength: 2000 })}
    ${field('Label', 'label', values, errors, { maxlength: 100 })}
    ${field('Tagline', 'tagline', values, errors, { maxlength: 200 })}
    ${field('Active from', 'active_from', values, errors, { placeholder: 'YYYY-MM-DD', maxlength: 40 })}
    ${field('Active until', 'active_until', values, errors, { placeholder: 'YYYY-MM-DD', maxlength: 40 })}
    ${checkbox('Featured', 'is_featured', values, errors)}`,
  )}`,
  );
}

export function overridesSection(viewer: AdminViewer, model: BookPageModel): SafeHtml {
  const options = [
    { value: '', label: 'Choose…' },
    ...model.destinations.map((d) => ({ value: d.slug, label: d.displayName })),
  ];
  return bookSection(
    model,
    { id: 'overrides', title: 'Retailer overrides', form: 'override' },
    ({ base, values, errors, add }) => html`${
      model.overrides.length === 0
        ? html`<p class="muted">No overrides.</p>`
        : html`<table class="data"><tbody>${model.overrides.map(
            (
              o,
            ) => html`<tr><td class="mono">${o.retailerKey}</td><td class="mono small">${o.overrideUrl}${o.notes ? html`<br><span class="muted">${o.notes}</span>` : ''}</td>
          <td>${actionButton(viewer, `${base}/overrides/delete`, 'retailer_key', o.retailerKey, 'Delete')}</td></tr>`,
          )}</tbody></table>`
    }
  ${add(
    viewer,
    { summary: "Override a retailer's URL", action: '/overrides', submit: 'Save override' },
    html`${select('Retailer', 'retailer_key', options, values, errors)}
    ${field('Override URL', 'override_url', values, errors, { type: 'url', maxlength: 2000 })}
    ${field('Notes', 'notes', values, errors, { maxlength: 500 })}`,
  )}`,
  );
}

export const pinsSection = (viewer: AdminViewer, model: BookPageModel): SafeHtml =>
  bookSection(
    model,
    { id: 'pins', title: 'Search pins', form: 'pin' },
    ({ base, values, errors }) => html`${
      model.pins.length === 0
        ? html`<p class="muted">Not pinned to any search.</p>`
        : html`<ul class="plain-list">${model.pins.map(
            (
              pin,
            ) => html`<li><span class="mono">${pin.queryKey}</span> <span class="muted small">${pin.searches} searches</span>
          ${actionButton(viewer, `${base}/pins/delete`, 'pin_id', pin.id, 'Unpin')}</li>`,
          )}</ul>`
    }
  <form method="post" action="${base}/pins" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${field('Search words', 'query', values, errors, { maxlength: 500 })}
    ${field('Notes', 'notes', values, errors, { maxlength: 500 })}
    <button type="submit" class="button">Pin to this search</button>
  </form>`,
  );

export const editionsSection = (viewer: AdminViewer, model: BookPageModel): SafeHtml =>
  bookSection(
    model,
    { id: 'editions', title: 'Editions', form: 'edition' },
    ({ base, values, errors }) => html`${
      model.editions.length < 2
        ? html`<p class="muted">No other editions linked.</p>`
        : html`<ul class="plain-list">${model.editions.map(
            (edition) => html`<li${edition.id === model.canonicalId ? html` class="is-canonical"` : ''}>
          <a href="/admin/books/${edition.id}">${edition.title}</a> <span class="muted small">#${edition.id} ${edition.format ?? ''} ${edition.isbn13 ?? ''}</span>
          ${edition.id === model.canonicalId ? html`<span class="tag">canonical</span>` : actionButton(viewer, `${base}/editions/canonical`, 'new_canonical_id', edition.id, 'Make canonical')}
          ${edition.id !== model.book.id && actionButton(viewer, `${base}/editions/unlink`, 'target_book_id', edition.id, 'Unlink')}</li>`,
          )}</ul>`
    }
  ${formError(errors)}
  <form method="post" action="${base}/editions/link" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${field('Link another edition: its ISBN, page address or id', 'target_book_id', values, errors, { hint: 'For example 9780141439518 or /book/pride-and-prejudice-jane-austen' })}
    ${errors.new_canonical_id && html`<p class="field__error">${errors.new_canonical_id}</p>`}
    <button type="submit" class="button">Link edition</button>
  </form>`,
  );

import type { KeysOverview } from '../../../services/admin/keys.js';
import { html } from '../html.js';
import { actionButton, checkbox, type FormErrors, type FormValues, field, formError } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface KeysModel {
  overview: KeysOverview;
  values: FormValues;
  errors: FormErrors;
  /** A key just created: shown this once, never again. */
  created?: string;
  notice: string | null;
}

export function renderKeys(viewer: AdminViewer, model: KeysModel): string {
  const { overview } = model;
  const body = html`<div class="page-head"><h1>API keys and integrations</h1></div>
${
  model.created &&
  html`<section class="panel panel--secret" role="status"><h2>New key</h2><p>Copy it now: it is shown this once and only its hash is stored.</p>
<p><code class="secret" data-role="new-key">${model.created}</code></p></section>`
}
<section class="panel"><header class="panel__head"><h2>Keys</h2><span class="muted small">calls in the last 30 days</span></header>
${
  overview.keys.length === 0
    ? html`<p class="muted">No keys. Integrators use the API without one at the anonymous rate limit.</p>`
    : html`<div class="table-scroll"><table class="data"><thead><tr><th>Name</th><th>Prefix</th><th>Scopes</th><th>Created</th><th>Last used</th><th class="num">Calls</th><th></th></tr></thead><tbody>
  ${overview.keys.map(
    (
      key,
    ) => html`<tr${key.revokedAt ? html` class="is-inactive"` : ''}><td>${key.name}</td><td class="mono">${key.prefix}…</td>
    <td>${key.scopes.join(', ') || '—'}</td><td class="small">${key.createdAt.slice(0, 10)}</td><td class="small">${key.lastUsedAt?.slice(0, 16).replace('T', ' ') ?? 'never'}</td>
    <td class="num">${overview.byKey.get(key.id) ?? 0}</td>
    <td>${key.revokedAt ? html`<span class="tag">revoked</span>` : actionButton(viewer, `/admin/keys/${key.id}/revoke`, 'confirm', 'yes', 'Revoke')}</td></tr>`,
  )}</tbody></table></div>`
}
<p class="muted small">Anonymous calls: ${overview.byKey.get(0) ?? 0}</p>
</section>
<div class="grid-2">
<section class="panel"><header class="panel__head"><h2>Create a key</h2></header>
  ${formError(model.errors)}
  <form method="post" action="/admin/keys" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${field('Name (who uses it)', 'name', model.values, model.errors, { maxlength: 100, required: true })}
    ${checkbox('Scope: ingest (may send lists)', 'ingest', model.values, model.errors)}
    <button type="submit" class="button">Create key</button>
  </form>
</section>
<section class="panel"><header class="panel__head"><h2>Calls by source</h2></header>
${
  overview.bySource.length === 0
    ? html`<p class="muted">No API calls in the last 30 days.</p>`
    : html`<table class="data"><tbody>${overview.bySource.map((row) => html`<tr><td class="mono">${row.source}</td><td class="num">${row.calls}</td></tr>`)}</tbody></table>`
}
</section></div>`;
  return renderAdminPage({ title: 'API keys', viewer, section: 'keys', notice: model.notice, body });
}

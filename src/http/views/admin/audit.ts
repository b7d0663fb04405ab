import type { AuditPage } from '../../../services/admin/audit.js';
import { html } from '../html.js';
import { type AdminViewer, renderAdminPage } from './layout.js';

const pretty = (json: string | null): string => {
  if (!json) return '';
  try {
    return JSON.stringify(JSON.parse(json), null, 1);
  } catch {
    return json;
  }
};

export function renderAudit(viewer: AdminViewer, model: AuditPage): string {
  const { records, page, hasMore } = model;
  const body = html`<div class="page-head"><h1>Audit log</h1></div>
<p class="muted">Every change made in this area: who, what, and the values before and after.</p>
<div class="table-scroll"><table class="data data--audit">
  <thead><tr><th>When (UTC)</th><th>Who</th><th>Action</th><th>Entity</th><th>Before</th><th>After</th></tr></thead>
  <tbody>${records.map(
    (
      r,
    ) => html`<tr><td class="small mono">${r.createdAt.replace('T', ' ').slice(0, 19)}</td><td>${r.userEmail}</td>
    <td class="mono">${r.action}</td><td class="mono">${r.entityType} ${r.entityId}</td>
    <td><pre class="json">${pretty(r.before)}</pre></td><td><pre class="json">${pretty(r.after)}</pre></td></tr>`,
  )}</tbody>
</table></div>
<nav class="pager">${page > 1 && html`<a href="/admin/audit?page=${page - 1}">← Newer</a>`} ${hasMore && html`<a href="/admin/audit?page=${page + 1}">Older →</a>`}</nav>`;
  return renderAdminPage({ title: 'Audit log', viewer, section: 'audit', body });
}

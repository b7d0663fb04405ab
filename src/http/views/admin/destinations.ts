import type { DestinationsOverview } from '../../../services/admin/destinations.js';
import { html } from '../html.js';
import { type AdminViewer, renderAdminPage } from './layout.js';

export interface DestinationListModel extends DestinationsOverview {
  notice: string | null;
}

export function renderDestinationList(viewer: AdminViewer, model: DestinationListModel): string {
  const { destinations, linkCounts, notice } = model;
  const body = html`<div class="page-head"><h1>Destinations</h1>
  <div><a class="button button--quiet" href="/admin/destinations/local-shop">New local bookshop</a> <a class="button" href="/admin/destinations/new">New destination</a></div></div>
<div class="table-scroll"><table class="data data--destinations">
  <thead><tr><th>Name</th><th class="col-wide">Slug</th><th>Group</th><th class="col-wide">Countries</th><th class="num col-wide">Priority</th><th>State</th><th class="num">Book links</th></tr></thead>
  <tbody>${destinations.map(
    (d) => html`<tr${d.isActive ? '' : html` class="is-inactive"`}>
    <td><span class="swatch" data-swatch="${/^#[0-9a-f]{6}$/i.test(d.brandColor) ? d.brandColor : '#888888'}"></span><a href="/admin/destinations/${d.id}">${d.displayName}</a></td>
    <td class="mono col-wide">${d.slug}</td><td>${d.group}</td><td class="small col-wide">${d.countries.length ? d.countries.join(' ') : 'everywhere'}${Object.keys(d.storefronts).length ? html` <span class="muted">(+${Object.keys(d.storefronts).length} storefronts)</span>` : ''}</td><td class="num col-wide">${d.displayPriority}</td>
    <td>${d.isActive ? 'active' : 'inactive'}${d.isPublic ? '' : html` <span class="tag">access code</span>`}</td>
    <td class="num">${linkCounts.get(d.id) ?? 0}</td></tr>`,
  )}</tbody>
</table></div>`;
  return renderAdminPage({ title: 'Destinations', viewer, section: 'destinations', notice, body });
}

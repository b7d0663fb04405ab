import { t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';

/**
 * The "can't find my book" report (`POST /search/miss`), the same plain form under a search with weak
 * results and on the page of an ISBN no catalogue knows: a plain POST that works without JavaScript
 * (web/search.js enhances it). `sfid` ties it to the logged search, if any.
 */
export function missReportForm(report: {
  query: string;
  resultCount: number;
  sfid?: number | null;
}): SafeHtml {
  return html`<form class="search-miss" action="/search/miss" method="post" data-search-miss>
  <input type="hidden" name="query" value="${report.query}">
  <input type="hidden" name="result_count" value="${report.resultCount}">
  ${report.sfid != null && html`<input type="hidden" name="sfid" value="${report.sfid}">`}
  <h2 class="search-miss__title">${t('search.miss.title')}</h2>
  <label for="search-miss-details">${t('search.miss.details')}</label>
  <textarea id="search-miss-details" name="details" maxlength="2000" rows="2"></textarea>
  <button type="submit" class="button">${t('search.miss.button')}</button>
  <p class="search-miss__thanks" role="status" hidden>${t('search.miss.thanks')}</p>
</form>`;
}

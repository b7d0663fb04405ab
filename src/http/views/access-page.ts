import { DEFAULT_SITE_NAME } from '../../domain/brand.js';
import type { OpenOutcome } from '../../services/access-codes.js';
import type { Brand } from '../../services/brand.js';
import { t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';
import { renderLayout } from './layout.js';

function period(count: number): string {
  return count % 24 === 0 && count >= 48
    ? t('access.forDays', { count: count / 24 })
    : t('access.forHours', { count });
}

function body(outcome: OpenOutcome): SafeHtml {
  if (outcome.kind === 'unknown') {
    return html`<main id="main" class="access access--unknown">
  <span class="access__badge" aria-hidden="true"></span>
  <h1>${t('access.unknown.heading')}</h1>
  <p>${t('access.unknown.text')}</p>
  <p><a href="/">${t('common.home')}</a></p>
</main>`;
  }
  if (outcome.kind === 'inactive') {
    return html`<main id="main" class="access access--inactive">
  <span class="access__badge" aria-hidden="true"></span>
  <h1>${outcome.code.displayName ? t('access.inactive.named', { name: outcome.code.displayName }) : t('access.inactive.heading')}</h1>
  <p>${t('access.inactive.text')}</p>
  <p><a href="/">${t('common.home')}</a></p>
</main>`;
  }
  const { code, unlocked } = outcome;
  return html`<main id="main" class="access access--opened" data-access-code="${code.slug}">
  <span class="access__badge" aria-hidden="true"></span>
  <h1>${t('access.opened.heading', { name: code.displayName || code.slug })}</h1>
  ${code.description && html`<p class="access__description">${code.description}</p>`}
  ${
    unlocked.length > 0
      ? html`<p>${t('access.opened.shows')}</p>
  <ul class="access__destinations">${unlocked.map((destination) => html`<li data-destination="${destination.slug}">${destination.displayName}</li>`)}</ul>`
      : html`<p>${t('access.opened.nothing')}</p>`
  }
  <p>${period(code.cookieTtlHours)}</p>
  <p><a class="button" href="/">${t('search.headingEmpty')}</a></p>
</main>`;
}

export function renderAccessPage(outcome: OpenOutcome, brand?: Brand): string {
  const title = outcome.kind === 'opened' ? t('access.opened.title') : t('access.invalid.title');
  return renderLayout({
    title: t('common.documentTitle', { title, site: brand?.siteName ?? DEFAULT_SITE_NAME }),
    brand,
    description: t('access.description'),
    robots: 'noindex',
    bodyClass: 'page-access',
    body: body(outcome),
  });
}

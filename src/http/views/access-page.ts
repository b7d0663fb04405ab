import { DEFAULT_SITE_NAME } from '../../domain/brand.js';
import type { OpenOutcome } from '../../services/access-codes.js';
import type { Brand } from '../../services/brand.js';
import { html, type SafeHtml } from './html.js';
import { renderLayout } from './layout.js';

function hours(count: number): string {
  if (count % 24 === 0 && count >= 48) return `${count / 24} days`;
  return `${count} hour${count === 1 ? '' : 's'}`;
}

function body(outcome: OpenOutcome): SafeHtml {
  if (outcome.kind === 'unknown') {
    return html`<main id="main" class="access access--unknown">
  <span class="access__badge" aria-hidden="true"></span>
  <h1>Unknown access code</h1>
  <p>This access link is not valid. Nothing was unlocked. Check the link you were given.</p>
  <p><a href="/">Go to the home page</a></p>
</main>`;
  }
  if (outcome.kind === 'inactive') {
    return html`<main id="main" class="access access--inactive">
  <span class="access__badge" aria-hidden="true"></span>
  <h1>${outcome.code.displayName || 'This access code'} is not active</h1>
  <p>This access code is no longer active. Nothing was unlocked.</p>
  <p><a href="/">Go to the home page</a></p>
</main>`;
  }
  const { code, unlocked } = outcome;
  return html`<main id="main" class="access access--opened" data-access-code="${code.slug}">
  <span class="access__badge" aria-hidden="true"></span>
  <h1>Access unlocked: ${code.displayName || code.slug}</h1>
  ${code.description && html`<p class="access__description">${code.description}</p>`}
  ${
    unlocked.length > 0
      ? html`<p>Book pages now also show:</p>
  <ul class="access__destinations">${unlocked.map((destination) => html`<li data-destination="${destination.slug}">${destination.displayName}</li>`)}</ul>`
      : html`<p>This code does not unlock any destinations yet.</p>`
  }
  <p>In this browser, for the next ${hours(code.cookieTtlHours)}.</p>
  <p><a class="button" href="/">Find a book</a></p>
</main>`;
}

export function renderAccessPage(outcome: OpenOutcome, brand?: Brand): string {
  const title = outcome.kind === 'opened' ? 'Access unlocked' : 'Access code not valid';
  return renderLayout({
    title: `${title} · ${brand?.siteName ?? DEFAULT_SITE_NAME}`,
    brand,
    description: 'Access codes unlock library and partner links on book pages.',
    robots: 'noindex',
    bodyClass: 'page-access',
    body: body(outcome),
  });
}

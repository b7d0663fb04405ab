import { t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';
import { DEFAULT_SITE_NAME, renderLayout } from './layout.js';

/**
 * The embed builder, a page for site owners at `/book/{slug}/embed` (linked from the book page's share
 * card; the reader's page itself carries no builder). It builds the `<script>` or `<iframe>` snippet
 * for another site (with or without the cover, with a partner id) and copies it. The default snippet
 * is in the markup, so it can be copied by hand without script; web/embed-builder.js rebuilds it as
 * the options change.
 */
export interface EmbedBuilderModel {
  baseUrl: string;
  slug: string;
  title: string;
}

export function embedScriptSnippet(baseUrl: string, slug: string): string {
  return `<script src="${baseUrl}/embed.js" data-book="${slug}" async></script>`;
}

/** The builder's path, from the book page's share card. */
export function embedBuilderPath(slug: string): string {
  return `/book/${encodeURIComponent(slug)}/embed`;
}

function builderForm({ baseUrl, slug }: EmbedBuilderModel): SafeHtml {
  return html`<section class="embed-panel" aria-label="${t('embedPanel.code')}" data-embed-base="${baseUrl}" data-embed-book="${slug}">
  <div class="embed-panel__body">
    <fieldset class="embed-panel__kind">
      <legend>${t('embedPanel.kind')}</legend>
      <label><input type="radio" name="embed-kind" value="script" checked> ${t('embedPanel.script')}</label>
      <label><input type="radio" name="embed-kind" value="iframe"> ${t('embedPanel.iframe')}</label>
    </fieldset>
    <label class="embed-panel__check"><input type="checkbox" name="embed-cover" checked> ${t('embedPanel.cover')}</label>
    <label class="embed-panel__field">${t('embedPanel.partner')}
      <input type="text" name="embed-partner" maxlength="64" pattern="[A-Za-z0-9][A-Za-z0-9_.\\-]*" autocomplete="off" spellcheck="false">
    </label>
    <label class="embed-panel__field" for="embed-code">${t('embedPanel.code')}</label>
    <textarea class="embed-panel__code" id="embed-code" rows="3" readonly>${embedScriptSnippet(baseUrl, slug)}</textarea>
    <button class="button embed-panel__copy" type="button" data-copied-status="${t('client.codeCopied')}" data-copy-hint="${t('client.codeHint')}" data-frame-title="${t('embed.frameTitleGeneric')}" hidden>${t('embedPanel.copy')}</button>
    <p class="embed-panel__status" role="status" aria-live="polite"></p>
  </div>
</section>`;
}

/** The preview frames this service's own iframe page, which any page may frame. */
function preview({ slug, title }: EmbedBuilderModel): SafeHtml {
  return html`<section class="embed-builder__preview" aria-labelledby="embed-preview-title">
  <h2 class="embed-builder__subtitle" id="embed-preview-title">${t('embedBuilder.preview')}</h2>
  <iframe class="embed-builder__frame" src="/embed/${encodeURIComponent(slug)}" title="${title}" width="100%" height="360" loading="lazy"></iframe>
</section>`;
}

export function renderEmbedBuilderPage(model: EmbedBuilderModel, siteName = DEFAULT_SITE_NAME): string {
  const bookPath = `/book/${encodeURIComponent(model.slug)}`;
  return renderLayout({
    title: t('embedBuilder.documentTitle', { title: model.title, site: siteName }),
    description: t('embedBuilder.description', { title: model.title }),
    canonicalUrl: `${model.baseUrl}${embedBuilderPath(model.slug)}`,
    // A tool for site owners, one per book: not a page for search engines.
    robots: 'noindex',
    scripts: ['embed-builder.js'],
    bodyClass: 'page-embed-builder',
    siteName,
    body: html`<main id="main" class="embed-builder">
  <p class="embed-builder__book"><a href="${bookPath}">${model.title}</a></p>
  <h1 class="embed-builder__title">${t('embedPanel.title')}</h1>
  <div class="embed-builder__grid">
    ${builderForm(model)}
    ${preview(model)}
  </div>
</main>`,
  });
}

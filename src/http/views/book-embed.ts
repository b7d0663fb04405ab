import { t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';
import type { BookPageModel } from './models.js';

/**
 * The book page's "Embed" panel: builds the `<script>` or `<iframe>` snippet for another site (with or
 * without the cover, with a partner id) and copies it. The default snippet is in the markup, so it can
 * be copied by hand without script; web/embed-panel.js rebuilds it as the options change.
 */
export function embedScriptSnippet(baseUrl: string, slug: string): string {
  return `<script src="${baseUrl}/embed.js" data-book="${slug}" async></script>`;
}

export function embedPanel(model: BookPageModel): SafeHtml {
  const { baseUrl } = model;
  const slug = model.book.slug;
  return html`<section class="embed-panel" aria-labelledby="embed-title" data-embed-base="${baseUrl}" data-embed-book="${slug}">
  <h2 class="embed-panel__title" id="embed-title">${t('embedPanel.title')}</h2>
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

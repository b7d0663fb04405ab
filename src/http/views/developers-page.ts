import { Marked } from 'marked';
import type { Brand } from '../../services/brand.js';
import { t } from '../i18n/context.js';
import { escapeHtml, html, raw } from './html.js';
import { renderLayout } from './layout.js';

/**
 * The developer guide (docs/developers.md) as an HTML page for people; `/developers.md` stays markdown
 * for agents. The guide is our own file, and still any raw HTML in it is shown as text, never run.
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

export function renderDevelopersPage(guide: string, baseUrl: string, brand: Brand): string {
  const body = markdown.parse(guide, { async: false });
  return renderLayout({
    title: t('developers.title', { site: brand.siteName }),
    description: t('developers.description', { site: brand.siteName }),
    brand,
    canonicalUrl: `${baseUrl}/developers`,
    bodyClass: 'page-developers',
    body: html`<main id="main" class="prose developers">
${raw(body)}
<p class="developers__raw"><a href="/developers.md">${t('developers.markdown')}</a></p>
</main>`,
  });
}

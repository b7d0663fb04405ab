import { DEFAULT_SITE_NAME } from '../../domain/brand.js';
import type { Book } from '../../services/book-pages.js';
import type { Brand } from '../../services/brand.js';
import type { MessageKey } from '../i18n/catalogue.js';
import { t } from '../i18n/context.js';
import { joinNames } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { renderLayout } from './layout.js';
import type { BookView } from './models.js';

export const SAVED_VIEWS = ['list', 'cover', 'card'] as const;
export type SavedView = (typeof SAVED_VIEWS)[number];

export interface SavedPageModel {
  /** Books of a shared URL (`?books=`), or null for the reader's own collection (rendered by web/saved.js). */
  shared: Book[] | null;
  sharedSlugs: string[];
  view: SavedView;
  baseUrl: string;
}

function savedItem(book: Book): SafeHtml {
  const href = `/book/${encodeURIComponent(book.slug)}`;
  const cover = safeUrl(book.coverUrl);
  return html`<li class="saved-item" data-slug="${book.slug}">
  <a class="saved-item__link" href="${href}">
    ${cover ? html`<img class="saved-item__cover" src="${cover}" alt="" width="80" height="120" loading="lazy" data-placeholder="saved-item__cover saved-item__cover--missing">` : html`<span class="saved-item__cover saved-item__cover--missing" aria-hidden="true"></span>`}
    <span class="saved-item__title">${book.title}</span>
    ${book.authors.length > 0 && html`<span class="saved-item__authors">${joinNames(book.authors)}</span>`}
  </a>
</li>`;
}

const VIEW_NAMES: Readonly<Record<SavedView, MessageKey>> = {
  list: 'saved.view.list',
  cover: 'saved.view.cover',
  card: 'saved.view.card',
};

/** View switches are links, so a shared collection can change view without JavaScript. */
function viewSwitch(view: SavedView, slugs: readonly string[] | null): SafeHtml {
  return html`<nav class="saved-views" aria-label="${t('saved.view')}">
  ${SAVED_VIEWS.map((name) => {
    const href = slugs
      ? `/saved?books=${slugs.map(encodeURIComponent).join(',')}&view=${name}`
      : `/saved?view=${name}`;
    return html`<a class="button saved-views__option" href="${href}" data-view-mode="${name}" aria-pressed="${String(name === view)}">${t(VIEW_NAMES[name])}</a>`;
  })}
</nav>`;
}

function sharedBody(model: SavedPageModel, books: Book[]): SafeHtml {
  return html`<main id="main" class="saved saved--shared" data-saved-shared="${model.sharedSlugs.join(',')}">
  <div class="saved__head">
    <h1>${t('saved.shared.heading')}</h1>
    ${viewSwitch(model.view, model.sharedSlugs)}
  </div>
  <p class="saved__intro">${books.length === 0 ? t('saved.shared.none') : t('saved.shared.intro', { count: books.length })}</p>
  <ul class="saved-list saved-list--${model.view}" data-view="${model.view}">${books.map(savedItem)}</ul>
  <p class="saved__actions"><button type="button" class="button" data-save-all hidden>${t('saved.shared.addAll')}</button> <a href="/saved">${t('saved.mine')}</a></p>
</main>`;
}

function ownBody(model: SavedPageModel): SafeHtml {
  return html`<main id="main" class="saved" data-saved-app data-view="${model.view}">
  <div class="saved__head">
    <h1>${t('saved.heading')}</h1>
    ${viewSwitch(model.view, null)}
  </div>
  <noscript><p class="saved__intro">${t('saved.noscript')}</p></noscript>
  <p class="saved-status" role="status" aria-live="polite"></p>
  <p class="saved-empty" hidden>${t('saved.empty')}</p>
  <ul class="saved-list saved-list--${model.view}" data-view="${model.view}"></ul>
  <div class="saved-share" hidden>
    <button type="button" class="button" data-share>${t('saved.share')}</button>
    <input class="saved-share__url" type="url" readonly aria-label="${t('saved.shareLink')}" hidden>
  </div>
</main>`;
}

export function renderSavedPage(model: SavedPageModel, brand?: Brand): string {
  const siteName = brand?.siteName ?? DEFAULT_SITE_NAME;
  return renderLayout({
    title: model.shared
      ? t('saved.shared.documentTitle', { site: siteName })
      : t('saved.documentTitle', { site: siteName }),
    brand,
    description: t('saved.description'),
    canonicalUrl: `${model.baseUrl}/saved`,
    robots: 'noindex',
    scripts: ['saved.js', 'cover-swap.js'],
    bodyClass: 'page-saved',
    body: model.shared ? sharedBody(model, model.shared) : ownBody(model),
  });
}

/**
 * The book page's "Save" and "Add to list" controls (web/saved.js, web/lists.js). Both keep their
 * state in the reader's browser, so the block stays hidden until a script shows it.
 */
export function readerTools(book: BookView): SafeHtml {
  return html`<div class="reader-tools" data-reader-tools data-title="${book.title}" data-authors="${joinNames(book.authors)}" data-cover="${safeUrl(book.coverUrl) ?? ''}" hidden>
  <button type="button" class="button reader-tools__save" data-save aria-pressed="false">${t('tools.save')}</button>
  <button type="button" class="button reader-tools__open" data-lists-toggle aria-expanded="false" aria-controls="reader-lists">${t('tools.addToList')}</button>
  <div class="reader-tools__lists" id="reader-lists" data-lists hidden>
    <p class="reader-tools__heading">${t('tools.listsHeading')}</p>
    <ul class="reader-tools__mine" data-lists-mine></ul>
    <form class="reader-tools__new" data-list-create>
      <input name="name" maxlength="200" placeholder="${t('tools.newList')}" aria-label="${t('tools.newList')}">
      <button type="submit" class="button">${t('tools.createList')}</button>
    </form>
    <p class="reader-tools__status" data-lists-status role="status" aria-live="polite"></p>
  </div>
</div>`;
}

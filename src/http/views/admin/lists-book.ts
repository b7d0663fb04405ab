import { html, type SafeHtml } from '../html.js';
import { listTitle } from '../list-page.js';
import { type BookPageModel, bookSection, formState } from './book-model.js';
import { actionButton, checkbox, field } from './form.js';
import type { AdminViewer } from './layout.js';

/** The book's lists, with SPEC 2.4 "book remove list" per list and the "book add list" form. */
export function listsSection(viewer: AdminViewer, model: BookPageModel): SafeHtml {
  const lists = model.lists ?? [];
  const removal = formState(model, 'list-remove', {}).errors;
  return bookSection(
    model,
    { id: 'lists', title: 'Lists', form: 'list', defaults: { list_source: 'admin' } },
    ({
      base,
      values,
      errors,
      add,
    }) => html`${removal.list_id && html`<p class="form-error" role="alert">${removal.list_id}</p>`}
  ${
    lists.length === 0
      ? html`<p class="muted">On no list.</p>`
      : html`<ul class="plain-list">${lists.map(
          ({ list, rank }) => html`<li><a href="/admin/lists/${list.id}">${listTitle(list)}</a>
          <span class="muted small">${list.source ?? list.kind}${rank !== null ? ` · rank ${rank}` : ''}</span>
          ${list.featured && html`<span class="tag">featured</span>`}
          ${actionButton(viewer, `${base}/lists/remove`, 'list_id', list.id, 'Remove from list')}</li>`,
        )}</ul>`
  }
  ${add(
    viewer,
    {
      summary: 'Add to list',
      action: '/lists',
      submit: 'Add to list',
      intro: 'The list with the same source, name and date gets the book; otherwise a new list is made.',
      stacked: true,
    },
    html`${field('List name', 'list_name', values, errors, { maxlength: 500 })}
    ${field('Source', 'list_source', values, errors, { maxlength: 100 })}
    ${field('Date', 'list_date', values, errors, { placeholder: 'YYYY-MM-DD', maxlength: 20 })}
    ${field('Rank', 'rank', values, errors, { type: 'number' })}
    ${checkbox('Feature the list on the home page', 'is_featured', values, errors)}`,
  )}`,
  );
}

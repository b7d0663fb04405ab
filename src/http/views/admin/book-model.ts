import type { BookAdminData } from '../../../services/admin/book-page.js';
import { html, type SafeHtml } from '../html.js';
import { type FormErrors, type FormValues, formError } from './form.js';
import { type AdminViewer, csrfField } from './layout.js';

/** What the book's admin page shows: the data read by the service, plus the state of a failed form. */
export interface BookPageModel extends BookAdminData {
  /** The form that failed, with what was typed and the errors beside its fields. */
  failed?: { form: string; values: FormValues; errors: FormErrors };
  notice?: string | null;
}

export const formState = (model: BookPageModel, form: string, defaults: FormValues) =>
  model.failed?.form === form
    ? { values: model.failed.values, errors: model.failed.errors }
    : { values: defaults, errors: {} as FormErrors };

/** What a section of the admin book page is: its panel (at `#id`, where its forms' redirects land) and its form. */
export interface BookSection {
  id: string;
  title: string;
  /** The form the section shows again when it was refused, and what it holds at first. */
  form: string;
  defaults?: FormValues;
}

/** A section's form state and the address its posts go under (`/admin/books/{id}`). */
export interface BookSectionState {
  base: string;
  values: FormValues;
  errors: FormErrors;
  /** The section's add form (`addForm`), open when it was the one refused. */
  add(viewer: AdminViewer, form: AddForm, fields: SafeHtml): SafeHtml;
}

/** A section of the admin book page: its panel named `title`, with what `content` draws from the form state. */
export function bookSection(
  model: BookPageModel,
  { id, title, form, defaults = {} }: BookSection,
  content: (state: BookSectionState) => SafeHtml,
): SafeHtml {
  const base = `/admin/books/${model.book.id}`;
  const { values, errors } = formState(model, form, defaults);
  const open = model.failed?.form === form;
  const state: BookSectionState = {
    base,
    values,
    errors,
    add: (viewer, spec, fields) => addForm(viewer, { base, errors, open }, spec, fields),
  };
  return html`<section class="panel" id="${id}" aria-labelledby="${id}-title">
  <header class="panel__head"><h2 id="${id}-title">${title}</h2></header>
  ${content(state)}
</section>`;
}

/** A section's add form: folded away unless it was the one refused, then open with its errors. */
export interface AddForm {
  summary: string;
  /** Under the section's `base`: `/links`. */
  action: string;
  submit: string;
  /** A line of help above the fields. */
  intro?: string;
  /** Fields one under the other (`admin-form--stack`). */
  stacked?: boolean;
}

function addForm(
  viewer: AdminViewer,
  state: { base: string; errors: FormErrors; open: boolean },
  { summary, action, submit, intro, stacked }: AddForm,
  fields: SafeHtml,
): SafeHtml {
  return html`<details class="add"${state.open ? html` open` : ''}><summary>${summary}</summary>
  ${intro ? html`<p class="muted small">${intro}</p>` : ''}
  ${formError(state.errors)}
  <form method="post" action="${state.base}${action}" class="admin-form${stacked ? ' admin-form--stack' : ''}">
    ${csrfField(viewer)}
    ${fields}
    <div class="form-actions"><button type="submit" class="button">${submit}</button></div>
  </form></details>`;
}

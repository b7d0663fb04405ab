import type { BookAdminData } from '../../../services/admin/book-page.js';
import type { FormErrors, FormValues } from './form.js';

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

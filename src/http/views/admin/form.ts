import { html, type SafeHtml } from '../html.js';
import { type AdminViewer, csrfField } from './layout.js';

/** Raw submitted or stored values by field name, and the error to show next to each field. */
export type FormValues = Readonly<Record<string, string | number | boolean | null | undefined>>;
export type FormErrors = Readonly<Record<string, string>>;

export interface FieldOptions {
  type?: 'text' | 'number' | 'url' | 'email' | 'password' | 'date' | 'datetime-local' | 'search';
  hint?: string;
  required?: boolean;
  maxlength?: number;
  placeholder?: string;
  /** Extra attributes the admin script hooks onto (`data-preview`). */
  data?: string;
}

const text = (value: FormValues[string]): string =>
  value === null || value === undefined || value === false ? '' : String(value);

function errorOf(name: string, errors: FormErrors, id: string): SafeHtml {
  const message = errors[name];
  return message ? html`<p class="field__error" id="${id}-error">${message}</p>` : html``;
}

export function field(
  label: string,
  name: string,
  values: FormValues,
  errors: FormErrors,
  options: FieldOptions = {},
): SafeHtml {
  const id = `f-${name}`;
  const invalid = !!errors[name];
  return html`<div class="field${invalid ? ' field--invalid' : ''}">
  <label for="${id}">${label}</label>
  <input id="${id}" name="${name}" type="${options.type ?? 'text'}" value="${text(values[name])}"${
    options.required ? html` required` : ''
  }${options.maxlength ? html` maxlength="${options.maxlength}"` : ''}${
    options.placeholder ? html` placeholder="${options.placeholder}"` : ''
  }${invalid ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}${options.data ? html` data-role="${options.data}"` : ''}>
  ${options.hint && html`<p class="field__hint">${options.hint}</p>`}
  ${errorOf(name, errors, id)}
</div>`;
}

export function textarea(
  label: string,
  name: string,
  values: FormValues,
  errors: FormErrors,
  rows = 4,
): SafeHtml {
  const id = `f-${name}`;
  return html`<div class="field field--wide${errors[name] ? ' field--invalid' : ''}">
  <label for="${id}">${label}</label>
  <textarea id="${id}" name="${name}" rows="${rows}">${text(values[name])}</textarea>
  ${errorOf(name, errors, id)}
</div>`;
}

/** A checkbox that always submits: the hidden "false" is overridden by the box when checked. */
export function checkbox(label: string, name: string, values: FormValues, errors: FormErrors): SafeHtml {
  const checked = values[name] === true || values[name] === 'true' || values[name] === 1;
  return html`<div class="field field--check${errors[name] ? ' field--invalid' : ''}">
  <input type="hidden" name="${name}" value="false">
  <label><input type="checkbox" name="${name}" value="true"${checked ? html` checked` : ''}> ${label}</label>
  ${errorOf(name, errors, `f-${name}`)}
</div>`;
}

export function select(
  label: string,
  name: string,
  options: ReadonlyArray<{ value: string; label: string }>,
  values: FormValues,
  errors: FormErrors,
): SafeHtml {
  const id = `f-${name}`;
  const current = text(values[name]);
  return html`<div class="field${errors[name] ? ' field--invalid' : ''}">
  <label for="${id}">${label}</label>
  <select id="${id}" name="${name}">
    ${options.map((option) =>
      option.value === current
        ? html`<option value="${option.value}" selected>${option.label}</option>`
        : html`<option value="${option.value}">${option.label}</option>`,
    )}
  </select>
  ${errorOf(name, errors, id)}
</div>`;
}

/** A form-wide error (not tied to one field). */
export function formError(errors: FormErrors): SafeHtml {
  return errors._form ? html`<p class="form-error" role="alert">${errors._form}</p>` : html``;
}

/** A one-button form: removing things is a POST with the CSRF token, never a GET link. */
export function actionButton(
  viewer: AdminViewer,
  action: string,
  name: string,
  value: string | number,
  label: string,
): SafeHtml {
  return html`<form method="post" action="${action}" class="inline-form">
  ${csrfField(viewer)}<input type="hidden" name="${name}" value="${value}">
  <button type="submit" class="button button--small button--quiet">${label}</button>
</form>`;
}

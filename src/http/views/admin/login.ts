import { html } from '../html.js';
import { type FormErrors, type FormValues, field, formError } from './form.js';
import { renderAdminPage } from './layout.js';

export interface LoginModel {
  /** The login form's CSRF token (tied to its own cookie: there is no session yet). */
  token: string;
  values: FormValues;
  errors: FormErrors;
}

export function renderLogin({ token, values, errors }: LoginModel): string {
  const body = html`<section class="admin-login card-panel">
  <h1>Sign in</h1>
  <p class="muted">The operator's area of this Booklink.</p>
  ${formError(errors)}
  <form method="post" action="/admin/login" class="admin-form admin-form--stack">
    <input type="hidden" name="_csrf" value="${token}">
    ${field('Email', 'email', values, errors, { type: 'email', required: true, maxlength: 320 })}
    ${field('Password', 'password', {}, errors, { type: 'password', required: true, maxlength: 500 })}
    <button type="submit" class="button">Sign in</button>
  </form>
</section>`;
  return renderAdminPage({ title: 'Sign in', viewer: null, body });
}

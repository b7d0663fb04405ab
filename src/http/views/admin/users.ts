import { type AdminUser, ROLES } from '../../../services/admin/users.js';
import { html } from '../html.js';
import { checkbox, type FormErrors, type FormValues, field, formError, select } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

const roleOptions = ROLES.map((role) => ({
  value: role,
  label: role === 'admin' ? 'Admin (everything)' : 'Editor (no users or keys)',
}));

export interface UsersModel {
  users: AdminUser[];
  values: FormValues;
  errors: FormErrors;
  /** The row that failed to update, with its errors. */
  failed?: { id: number; errors: FormErrors };
  notice: string | null;
}

function userRow(viewer: AdminViewer, user: AdminUser, errors: FormErrors) {
  const values = { role: user.role, is_active: user.isActive };
  return html`<tr><td>${user.email}${user.lockedUntil && user.lockedUntil > new Date().toISOString() ? html` <span class="tag tag--warn">locked</span>` : ''}</td>
  <td class="small">${user.lastLoginAt?.slice(0, 16).replace('T', ' ') ?? 'never'}</td>
  <td><form method="post" action="/admin/users/${user.id}" class="admin-form admin-form--row">
    ${csrfField(viewer)}
    ${select('Role', 'role', roleOptions, values, errors)}
    ${field('New password', 'password', {}, errors, { type: 'password', maxlength: 500 })}
    ${checkbox('Active', 'is_active', values, errors)}
    <button type="submit" class="button button--small">Save</button>
  </form></td></tr>`;
}

export function renderUsers(viewer: AdminViewer, model: UsersModel): string {
  const body = html`<div class="page-head"><h1>Users</h1></div>
<section class="panel"><header class="panel__head"><h2>Accounts</h2></header>
<div class="table-scroll"><table class="data"><thead><tr><th>Email</th><th>Last sign-in</th><th>Role and access</th></tr></thead>
<tbody>${model.users.map((user) => userRow(viewer, user, model.failed?.id === user.id ? model.failed.errors : {}))}</tbody></table></div>
</section>
<section class="panel" id="new-user"><header class="panel__head"><h2>Add a user</h2></header>
  ${formError(model.errors)}
  <form method="post" action="/admin/users" class="admin-form">
    ${csrfField(viewer)}
    ${field('Email', 'email', model.values, model.errors, { type: 'email', required: true, maxlength: 320 })}
    ${field('Password', 'password', {}, model.errors, { type: 'password', required: true, maxlength: 500, hint: 'At least 10 characters.' })}
    ${select('Role', 'role', roleOptions, model.values, model.errors)}
    <div class="form-actions"><button type="submit" class="button">Add user</button></div>
  </form>
</section>`;
  return renderAdminPage({ title: 'Users', viewer, section: 'users', notice: model.notice, body });
}

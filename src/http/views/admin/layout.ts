import { assetUrl } from '../assets.js';
import { html, type SafeHtml } from '../html.js';

/** What every signed-in admin page knows about the visitor. */
export interface AdminViewer {
  email: string;
  role: 'admin' | 'editor';
  csrfToken: string;
}

export interface AdminPageOptions {
  title: string;
  viewer: AdminViewer | null;
  /** The nav entry to mark current. */
  section?: string;
  notice?: string | null;
  body: SafeHtml;
}

const NAV: ReadonlyArray<{ key: string; href: string; label: string; adminOnly?: boolean }> = [
  { key: 'dashboard', href: '/admin', label: 'Analytics' },
  { key: 'earnings', href: '/admin/earnings', label: 'What earns' },
  { key: 'books', href: '/admin/books', label: 'Books' },
  { key: 'destinations', href: '/admin/destinations', label: 'Destinations' },
  { key: 'pins', href: '/admin/pins', label: 'Search pins' },
  { key: 'lists', href: '/admin/lists', label: 'Lists' },
  { key: 'access-codes', href: '/admin/access-codes', label: 'Access codes' },
  { key: 'affiliate', href: '/admin/affiliate', label: 'Affiliate tags', adminOnly: true },
  { key: 'partners', href: '/admin/partners', label: 'Partners', adminOnly: true },
  { key: 'brand', href: '/admin/brand', label: 'Brand', adminOnly: true },
  { key: 'offers', href: '/admin/offers', label: 'Offers', adminOnly: true },
  { key: 'keys', href: '/admin/keys', label: 'API keys', adminOnly: true },
  { key: 'users', href: '/admin/users', label: 'Users', adminOnly: true },
  { key: 'audit', href: '/admin/audit', label: 'Audit log' },
];

function nav(viewer: AdminViewer, section: string | undefined): SafeHtml {
  const items = NAV.filter((item) => !item.adminOnly || viewer.role === 'admin');
  return html`<nav class="admin-nav" aria-label="Admin">
  ${items.map((item) =>
    item.key === section
      ? html`<a href="${item.href}" aria-current="page">${item.label}</a>`
      : html`<a href="${item.href}">${item.label}</a>`,
  )}
</nav>`;
}

export function csrfField(viewer: AdminViewer): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${viewer.csrfToken}">`;
}

function header(viewer: AdminViewer | null, section: string | undefined): SafeHtml {
  return html`<header class="admin-header">
  <div class="admin-header__inner">
    <a class="brand" href="/admin"><span class="brand__mark" aria-hidden="true"></span>Booklink <span class="admin-badge">admin</span></a>
    ${viewer && nav(viewer, section)}
    ${
      viewer &&
      html`<form class="admin-user" method="post" action="/admin/logout">
      ${csrfField(viewer)}
      <span class="admin-user__email" title="${viewer.role}">${viewer.email}</span>
      <button type="submit" class="button button--quiet">Log out</button>
    </form>`
    }
  </div>
</header>`;
}

/** The admin area's own page frame: the public stylesheet plus admin.css, never cached, never indexed. */
export function renderAdminPage(options: AdminPageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Booklink admin</title>
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('styles.css')}">
<link rel="stylesheet" href="${assetUrl('admin.css')}">
<script src="${assetUrl('admin.js')}" defer></script>
</head>
<body class="admin">
<a class="skip-link" href="#main">Skip to content</a>
${header(options.viewer, options.section)}
<main id="main" class="admin-main">
${options.notice && html`<p class="admin-notice" role="status">${options.notice}</p>`}
${options.body}
</main>
</body>
</html>
`.value;
}

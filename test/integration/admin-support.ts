import { createUser } from '../../src/services/admin/users.js';
import type { Store } from '../../src/store/db.js';
import type { Role } from '../../src/store/users.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';

export const PASSWORD = 'correct horse battery';

/** A browser-like client: keeps cookies, reads the CSRF token from the last page, posts forms. */
export class AdminClient {
  private cookies = new Map<string, string>();
  csrf = '';

  /** `t` may be changed to another instance: the same browser, another server. */
  constructor(public t: Pick<TestApp, 'baseUrl'>) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string): Promise<{ status: number; body: string; location: string | null }> {
    const response = await fetch(`${this.t.baseUrl}${path}`, {
      redirect: 'manual',
      headers: { 'user-agent': HUMAN_UA, cookie: this.cookieHeader() },
    });
    this.remember(response);
    const body = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, body, location: response.headers.get('location') };
  }

  async post(path: string, fields: Record<string, string>, withCsrf = true) {
    const form = new URLSearchParams(withCsrf ? { _csrf: this.csrf, ...fields } : fields);
    const response = await fetch(`${this.t.baseUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'user-agent': HUMAN_UA,
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    this.remember(response);
    const body = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, body, location: response.headers.get('location') };
  }

  /** A multipart form (a file upload), with the CSRF token unless told otherwise. */
  async upload(path: string, form: FormData, withCsrf = true) {
    if (withCsrf) form.set('_csrf', this.csrf);
    const response = await fetch(`${this.t.baseUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'user-agent': HUMAN_UA, cookie: this.cookieHeader() },
      body: form,
    });
    this.remember(response);
    const body = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, body, location: response.headers.get('location') };
  }

  async login(email: string, password = PASSWORD) {
    await this.get('/admin/login');
    const result = await this.post('/admin/login', { email, password });
    if (result.status === 303) await this.get('/admin/books');
    return result;
  }

  sessionToken(): string {
    return this.cookies.get('bl_admin') ?? '';
  }

  hasSession(): boolean {
    return this.cookies.has('bl_admin');
  }
}

export async function addUser(store: Store, email: string, role: Role): Promise<void> {
  const result = await createUser(store.db, { id: null, email: 'test' }, { email, password: PASSWORD, role });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
}

export async function startAdminApp(store: Store): Promise<TestApp> {
  return startTestApp(store, {}, { clickFlushIntervalMs: 20 });
}

/** Inserts a saved book directly, as the creator would. */
export async function addBook(
  store: Store,
  fields: { slug: string; title: string; isbn13?: string | null; authors?: string[] },
): Promise<number> {
  const now = new Date().toISOString();
  const row = await store.db
    .insertInto('books')
    .values({
      slug: fields.slug,
      work_id: null,
      isbn13: fields.isbn13 ?? null,
      isbn10: null,
      title: fields.title,
      subtitle: null,
      authors: JSON.stringify(fields.authors ?? ['Test Author']),
      cover_url: null,
      published_date: '2001-01-01',
      publisher: null,
      format: 'paperback',
      language: 'en',
      pages: null,
      description: null,
      match_key: null,
      popularity: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Book } from '../../../services/admin/books.js';
import type { Services } from '../../../services/container.js';
import { renderBookAdmin } from '../../views/admin/book.js';
import { renderBookList } from '../../views/admin/books.js';
import { type AdminRoutes, foundById, IdParams, sendAdminPage, sendPage } from './context.js';
import { type FailedForm, formOptionsOn, submitForm } from './submit-form.js';

export const bookOr404 = (services: Services, request: FastifyRequest): Promise<Book> =>
  foundById(request, (id) => services.admin.books.find(id), 'book');

/** The book page again, with one form refilled and its errors beside the fields (422, never a raw body). */
export async function showFailedForm(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  book: Book,
  failed: FailedForm & { form: string },
): Promise<FastifyReply> {
  const model = await services.admin.books.page(book);
  return sendPage(reply, renderBookAdmin(request.adminViewer, { ...model, failed }), 422);
}

/** SPEC 2.4 "book edit", with its defaults. */
const BookEditBody = Type.Object({
  title: Type.String({ default: '', maxLength: 500 }),
  authors: Type.String({ default: '', maxLength: 2000 }),
  isbn_13: Type.String({ default: '', maxLength: 20 }),
  cover_url: Type.String({ default: '', maxLength: 2000 }),
  description: Type.String({ default: '', maxLength: 10000 }),
});

export const bookRoutes: AdminRoutes = async (app, { services }) => {
  const books = services.admin.books;

  app.get(
    '/admin/books',
    {
      schema: { hide: true, querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 500 })) }) },
    },
    async (request, reply) => {
      const query = request.query.q ?? '';
      const model = { query, books: await books.search(query) };
      return sendPage(reply, renderBookList(request.adminViewer, model));
    },
  );

  app.get('/admin/books/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const model = await books.page(await bookOr404(services, request));
    return sendAdminPage(request, reply, renderBookAdmin, model);
  });

  app.post('/admin/books/:id/edit', formOptionsOn(IdParams, BookEditBody), async (request, reply) =>
    submitForm(request, reply, {
      load: () => bookOr404(services, request),
      run: (actor, book, body) => books.update(actor, book, body),
      show: (book, failed) => showFailedForm(services, request, reply, book, { form: 'edit', ...failed }),
      done: (book) => `/admin/books/${book.id}?notice=saved`,
    }),
  );
};

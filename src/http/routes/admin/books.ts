import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseIsbn } from '../../../domain/isbn.js';
import { bookPageModel, findBook } from '../../../services/admin/book-page.js';
import { updateBook } from '../../../services/admin/books.js';
import { listsOfBook } from '../../../services/admin/lists-read.js';
import type { Services } from '../../../services/container.js';
import { findBooksForAdmin } from '../../../store/admin-books.js';
import type { Book } from '../../../store/books.js';
import { HttpError } from '../../errors.js';
import { renderBookAdmin } from '../../views/admin/book.js';
import { renderBookList } from '../../views/admin/books.js';
import type { FormErrors, FormValues } from '../../views/admin/form.js';
import {
  type AdminRouteOptions,
  commandContext,
  dbOf,
  IdParams,
  idParam,
  noticeOf,
  seeOther,
  sendPage,
  viewerOf,
} from './context.js';
import { schemaErrors, submitted } from './form-errors.js';

export async function bookOr404(services: Services, request: FastifyRequest): Promise<Book> {
  const book = await findBook(dbOf(services), idParam(request));
  if (!book) throw new HttpError(404, 'book_not_found', 'There is no book with this id.');
  return book;
}

/** The admin book page's model: its curation, plus the lists that hold it. */
async function fullModel(services: Services, book: Book) {
  const db = dbOf(services);
  const [model, lists] = await Promise.all([bookPageModel(db, book), listsOfBook(db, book.id)]);
  return { ...model, lists };
}

/** The book page again, with one form refilled and its errors beside the fields (422, never a raw body). */
export async function showFailedForm(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  book: Book,
  failed: { form: string; values: FormValues; errors: FormErrors },
): Promise<FastifyReply> {
  const model = await fullModel(services, book);
  return sendPage(reply, renderBookAdmin(viewerOf(request), { ...model, failed }), 422);
}

/** SPEC 2.4 "book edit", with its defaults. */
const BookEditBody = Type.Object({
  title: Type.String({ default: '', maxLength: 500 }),
  authors: Type.String({ default: '', maxLength: 2000 }),
  isbn_13: Type.String({ default: '', maxLength: 20 }),
  cover_url: Type.String({ default: '', maxLength: 2000 }),
  description: Type.String({ default: '', maxLength: 10000 }),
});

export const bookRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const db = dbOf(services);

  app.get(
    '/admin/books',
    {
      schema: { hide: true, querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 500 })) }) },
    },
    async (request, reply) => {
      const q = request.query.q ?? '';
      const books = await findBooksForAdmin(db, q, parseIsbn(q)?.isbn13 ?? null);
      return sendPage(reply, renderBookList(viewerOf(request), q, books));
    },
  );

  app.get('/admin/books/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const book = await bookOr404(services, request);
    const model = await fullModel(services, book);
    return sendPage(reply, renderBookAdmin(viewerOf(request), { ...model, notice: noticeOf(request) }));
  });

  app.post(
    '/admin/books/:id/edit',
    { attachValidation: true, schema: { hide: true, params: IdParams, body: BookEditBody } },
    async (request, reply) => {
      const book = await bookOr404(services, request);
      const errors = schemaErrors(request);
      if (errors)
        return showFailedForm(services, request, reply, book, {
          form: 'edit',
          values: submitted(request),
          errors,
        });
      const result = await updateBook(commandContext(request, services), book, request.body);
      if (!result.ok)
        return showFailedForm(services, request, reply, book, {
          form: 'edit',
          values: submitted(request),
          errors: result.errors,
        });
      return seeOther(reply, `/admin/books/${book.id}?notice=saved`);
    },
  );
};

import { Type } from 'typebox';
import { parseRanks, wholeNumber } from '../../../services/admin/list-fields.js';
import { bookPageForms } from './book-form.js';
import { bookOr404, showFailedForm } from './books.js';
import { type AdminRoutes, IdParams, seeOther } from './context.js';
import { submitted } from './form-errors.js';
import { listOr404, showListPage } from './lists.js';
import { formOptionsOn, submitForm } from './submit-form.js';

// Numbers are taken as text and checked by the commands (see wholeNumber): errors beside the field.
const rank = Type.String({ default: '', maxLength: 20 });
const id = Type.String({ default: '', maxLength: 20 });
const idOf = (text: string) => wholeNumber(text, Number.MAX_SAFE_INTEGER);

/** SPEC 2.4 "book add list" (an empty rank is null) and "book remove list" (list_id required). */
const BookAddListBody = Type.Object({
  list_name: Type.String({ default: '', maxLength: 500 }),
  list_source: Type.String({ default: 'admin', maxLength: 100 }),
  rank,
  list_date: Type.String({ default: '', maxLength: 20 }),
  is_featured: Type.String({ default: '', maxLength: 10 }),
});
const BookRemoveListBody = Type.Object({ list_id: id });
const AddBookBody = Type.Object({ book_ref: Type.String({ default: '', maxLength: 2000 }), rank });
const RemoveBookBody = Type.Object({ book_id: id });
/** `books` (the ids the form showed) and one `rank_{id}` per book; other fields are dropped. */
const OrderBody = Type.Record(
  Type.String({ pattern: '^(_csrf|books|rank_[0-9]{1,16})$' }),
  Type.String({ maxLength: 20_000 }),
);

/** A list's books (Lists area) and a book's lists (book page): both ends of the same items. */
export const listItemRoutes: AdminRoutes = async (app, { services }) => {
  const lists = services.admin.lists;

  app.post('/admin/lists/:id/books', formOptionsOn(IdParams, AddBookBody), async (request, reply) =>
    submitForm(request, reply, {
      load: () => listOr404(services, request),
      run: (actor, list, body) => lists.addBook(actor, list, body),
      show: (list, failed) => showListPage(services, request, reply, list, { form: 'add', ...failed }),
      done: (list) => `/admin/lists/${list.id}?notice=created#books`,
    }),
  );

  app.post(
    '/admin/lists/:id/books/remove',
    formOptionsOn(IdParams, RemoveBookBody),
    async (request, reply) => {
      const list = await listOr404(services, request);
      const bookId = request.validationError ? null : idOf(request.body.book_id);
      if (typeof bookId === 'number') await lists.removeBook(request.adminActor, list.id, bookId);
      return seeOther(reply, `/admin/lists/${list.id}?notice=deleted#books`);
    },
  );

  // Not submitForm: a refused body changes nothing and goes back to the list (only rank errors show).
  app.post('/admin/lists/:id/order', formOptionsOn(IdParams, OrderBody), async (request, reply) => {
    const list = await listOr404(services, request);
    const parsed = request.validationError ? { ranks: new Map() } : parseRanks(request.body);
    if ('errors' in parsed)
      return showListPage(services, request, reply, list, {
        form: 'order',
        values: submitted(request),
        errors: parsed.errors,
      });
    if (parsed.ranks.size > 0) await lists.reorder(request.adminActor, list, parsed.ranks);
    return seeOther(reply, `/admin/lists/${list.id}?notice=saved#books`);
  });

  bookPageForms(app, services).form('/admin/books/:id/lists', BookAddListBody, {
    form: 'list',
    run: (actor, book, body) => lists.addToNamedList(actor, book, body),
    done: (book) => `/admin/books/${book.id}?notice=created#lists`,
  });

  // Not submitForm: a missing or mistyped list id gets one message of its own, not the schema's.
  app.post(
    '/admin/books/:id/lists/remove',
    formOptionsOn(IdParams, BookRemoveListBody),
    async (request, reply) => {
      const book = await bookOr404(services, request);
      const listId = request.validationError ? null : idOf(request.body.list_id);
      if (typeof listId !== 'number')
        return showFailedForm(services, request, reply, book, {
          form: 'list-remove',
          values: submitted(request),
          errors: { list_id: 'Choose a list to remove the book from.' },
        });
      await lists.removeBook(request.adminActor, listId, book.id);
      return seeOther(reply, `/admin/books/${book.id}?notice=deleted#lists`);
    },
  );
};

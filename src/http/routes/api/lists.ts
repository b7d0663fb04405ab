import { Type } from 'typebox';
import { LIST_ID_PATTERN } from '../../../domain/list-ids.js';
import { type BookChange, listPath, MAX_LIST_BOOKS } from '../../../services/lists.js';
import { HttpError, notFound, ValidationProblem } from '../../errors.js';
import { writerOf } from '../../plugins/rate-limit.js';
import { CreatedListBody, ListBody, listJson, MyListsBody } from '../../presenters/list.js';
import { Integer, Nullable } from '../../validation.js';
import { refuseIfOverCap } from '../../write-refusals.js';
import type { PublicRoutes } from '../public-routes.js';

const ListId = Type.String({
  pattern: LIST_ID_PATTERN,
  description: 'The list id (the `id` a list answers with; text, as in its page address)',
  examples: ['k3x9q2m7w4ab'],
});
const EditToken = Type.Object({
  'x-edit-token': Type.Optional(
    Type.String({ maxLength: 64, description: 'The token returned at creation' }),
  ),
});

const CreateListRequest = Type.Object(
  { name: Nullable(Type.String({ maxLength: 200 })), book_id: Nullable(Integer()) },
  { description: 'SPEC 2.4 CreateListRequest', examples: [{ name: 'Summer reading', book_id: 1 }] },
);
const UpdateListRequest = Type.Object(
  {
    name: Nullable(Type.String({ maxLength: 200 })),
    description: Nullable(Type.String({ maxLength: 2000 })),
  },
  { description: 'SPEC 2.4 UpdateListRequest' },
);
const AddBookRequest = Type.Object({ book_id: Integer() }, { description: 'SPEC 2.4 AddBookRequest' });
const MyListsRequest = Type.Object(
  {
    edit_tokens: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 }),
    book_id: Nullable(Integer()),
  },
  { description: 'SPEC 2.4 MyListsRequest' },
);

const Detail = Type.Object({ detail: Type.String() });
function noBook(bookId: number): ValidationProblem {
  return new ValidationProblem([
    {
      type: 'value_error',
      loc: ['body', 'book_id'],
      msg: 'Value error, there is no book with this id',
      input: bookId,
    },
  ]);
}

/** Maps a refused edit to its answer; a wrong token changes nothing and says only "forbidden". */
function refuse(outcome: BookChange, bookId: number): never {
  if (outcome.kind === 'not_found') throw notFound('There is no list with this id.');
  if (outcome.kind === 'forbidden')
    throw new HttpError(403, 'edit_token_invalid', 'The X-Edit-Token does not allow editing this list.');
  if (outcome.kind === 'no_book') throw noBook(bookId);
  if (outcome.kind === 'full')
    throw new HttpError(409, 'list_full', `A list holds at most ${MAX_LIST_BOOKS} books.`);
  throw notFound('This book is not in the list.');
}

/** Lists without accounts (DESIGN: interaction endpoints); editing needs the list's X-Edit-Token. */
export const listRoutes: PublicRoutes = async (app, { services }) => {
  const { lists } = services;
  const base = services.config.baseUrl;
  const load = async (id: string) => {
    const found = await lists.get(id);
    if (!found) throw notFound('There is no list with this id.');
    return listJson(base, found.list, found.items);
  };
  const tags = ['lists'];

  app.post(
    '/api/v1/lists',
    {
      schema: {
        summary: 'Create a list; the edit token is shown only here',
        tags,
        body: CreateListRequest,
        response: { 201: CreatedListBody },
      },
    },
    async (request, reply) => {
      const bookId = request.body.book_id ?? null;
      const outcome = await lists.create({ name: request.body.name ?? null, bookId }, writerOf(request));
      if (outcome.kind === 'no_book') throw noBook(bookId ?? 0);
      refuseIfOverCap(reply, 'list', outcome);
      return reply.code(201).send({ ...(await load(outcome.list.publicId)), edit_token: outcome.token });
    },
  );

  app.get(
    '/api/v1/lists/:id',
    {
      schema: {
        summary: 'A list and its books',
        tags,
        params: Type.Object({ id: ListId }),
        response: { 200: ListBody, 404: Detail },
      },
    },
    async (request) => load(request.params.id),
  );

  app.patch(
    '/api/v1/lists/:id',
    {
      schema: {
        summary: 'Rename or describe a list',
        tags,
        params: Type.Object({ id: ListId }),
        headers: EditToken,
        body: UpdateListRequest,
        response: { 200: ListBody, 403: Detail, 404: Detail },
      },
    },
    async (request) => {
      const { name, description } = request.body;
      const outcome = await lists.update(request.params.id, request.headers['x-edit-token'], {
        name,
        description,
      });
      if (outcome.kind !== 'ok') refuse(outcome, 0);
      return load(request.params.id);
    },
  );

  app.post(
    '/api/v1/lists/:id/books',
    {
      schema: {
        summary: 'Add a book at the end of a list',
        tags,
        params: Type.Object({ id: ListId }),
        headers: EditToken,
        body: AddBookRequest,
        response: { 201: ListBody, 403: Detail, 404: Detail, 409: Detail },
      },
    },
    async (request, reply) => {
      const { book_id } = request.body;
      const { id } = request.params;
      const outcome = await lists.addBook(id, request.headers['x-edit-token'], book_id, writerOf(request));
      refuseIfOverCap(reply, 'list_book', outcome);
      if (outcome.kind !== 'ok') refuse(outcome, book_id);
      return reply.code(201).send(await load(request.params.id));
    },
  );

  app.delete(
    '/api/v1/lists/:id/books/:book_id',
    {
      schema: {
        summary: 'Remove a book from a list',
        tags,
        params: Type.Object({ id: ListId, book_id: Integer() }),
        headers: EditToken,
        response: { 204: Type.Null(), 403: Detail, 404: Detail },
      },
    },
    async (request, reply) => {
      const { id, book_id } = request.params;
      const outcome = await lists.removeBook(id, request.headers['x-edit-token'], book_id);
      if (outcome.kind !== 'ok') refuse(outcome, book_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/lists/mine',
    {
      schema: {
        summary: 'The lists of these edit tokens; with book_id, which of them hold that book',
        tags,
        body: MyListsRequest,
        response: { 200: MyListsBody },
      },
    },
    async (request) => {
      const bookId = request.body.book_id ?? null;
      const found = await lists.mine(request.body.edit_tokens, bookId);
      return {
        lists: found.map(({ list, bookCount, containsBook }) => ({
          id: list.publicId,
          name: list.name,
          url: `${base}${listPath(list)}`,
          book_count: bookCount,
          ...(containsBook === null ? {} : { contains_book: containsBook }),
        })),
      };
    },
  );
};

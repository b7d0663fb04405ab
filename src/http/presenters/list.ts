import { Type } from 'typebox';
import { LIST_ID_PATTERN } from '../../domain/list-ids.js';
import type { List, ListItem } from '../../services/lists.js';
import { listPath } from '../../services/lists.js';

/** JSON shapes of lists, declared once for validation, serialization and /openapi.json. */
const ListBookBody = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  title: Type.String(),
  authors: Type.Array(Type.String()),
  cover_url: Type.Union([Type.String(), Type.Null()]),
  booklink_url: Type.String(),
  rank: Type.Union([Type.Integer(), Type.Null()]),
});

/** A list's public id: a random one, or an old list's number as text (domain/list-ids.ts). */
export const ListIdBody = Type.String({
  pattern: LIST_ID_PATTERN,
  description: 'The list id, as its addresses carry it (text: old lists keep their number, as a string)',
  examples: ['k3x9q2m7w4ab'],
});

export const ListBody = Type.Object({
  id: ListIdBody,
  name: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  url: Type.String({ description: 'The public list page' }),
  books: Type.Array(ListBookBody),
  updated_at: Type.String(),
});

export const CreatedListBody = Type.Intersect([
  ListBody,
  Type.Object({ edit_token: Type.String({ description: 'Shown once; send it as X-Edit-Token to edit' }) }),
]);

export const MyListsBody = Type.Object({
  lists: Type.Array(
    Type.Object({
      id: ListIdBody,
      name: Type.Union([Type.String(), Type.Null()]),
      url: Type.String(),
      book_count: Type.Integer(),
      contains_book: Type.Optional(Type.Boolean()),
    }),
  ),
});

export type ListJson = Type.Static<typeof ListBody>;

export function listJson(baseUrl: string, list: List, items: readonly ListItem[]): ListJson {
  return {
    id: list.publicId,
    name: list.name,
    description: list.description,
    url: `${baseUrl}${listPath(list)}`,
    books: items.map(({ book, rank }) => ({
      id: book.id,
      slug: book.slug,
      title: book.title,
      authors: book.authors,
      cover_url: book.coverUrl,
      booklink_url: `${baseUrl}/book/${encodeURIComponent(book.slug)}`,
      rank,
    })),
    updated_at: list.updatedAt,
  };
}

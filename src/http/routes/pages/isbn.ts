import { Type } from 'typebox';
import { readerCountry } from '../../../domain/storefronts.js';
import { HttpError } from '../../errors.js';
import { wantsJson } from '../../plugins/errors.js';
import { requesterOf } from '../../requester.js';
import { isbnOrProblem } from '../../validation.js';
import { renderUnknownIsbnPage } from '../../views/error-page.js';
import { refuseIfCreationRefused, visitorMayCreate } from '../../write-refusals.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

const IsbnParams = Type.Object({
  isbn: Type.String({
    minLength: 10,
    maxLength: 32,
    description: 'ISBN-10 or ISBN-13; hyphens and spaces allowed',
    examples: ['9780439023481', '0-439-02348-3'],
  }),
});

/**
 * `/isbn/{isbn}` (SPEC 3, 4.1): the ISBN-10 and ISBN-13 of one edition reach the same book; a new
 * book is created for a human visitor, never for an automated one.
 */
export const isbnRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/isbn/:isbn',
    pageSchema({
      summary: 'Go to the book page for an ISBN, creating the book on first visit',
      params: IsbnParams,
      response: {
        302: Type.Null({ description: 'Redirect to /book/{slug}' }),
        404: Type.String({
          description:
            'No catalogue knows the ISBN: to a browser, a page offering searches for it at stores and WorldCat',
        }),
      },
    }),
    async (request, reply) => {
      const isbn = isbnOrProblem(request.params.isbn, 'path');
      const mayCreate = visitorMayCreate(services, request, request.isAutomated);
      const outcome = await services.creator.byIsbn(isbn, mayCreate, requesterOf(request));
      if (outcome.kind === 'existing' || outcome.kind === 'created') {
        return reply.redirect(`/book/${encodeURIComponent(outcome.book.slug)}`, 302);
      }
      refuseIfCreationRefused(reply, mayCreate);
      if (outcome.kind === 'unknown' && outcome.limited) {
        // Not "unknown": some source was not asked (its request budget is spent); it may know the book.
        reply.header('retry-after', 60);
        throw new HttpError(
          503,
          'sources_busy',
          `The local catalog does not know the ISBN ${isbn.isbn13}, and some book sources could not be asked just now. Try again in a minute.`,
          false,
          { isbn: isbn.isbn13 },
        );
      }
      if (outcome.kind === 'unknown' && !wantsJson(request)) {
        const country = readerCountry(undefined, request.headers, services.brand.defaultCountry());
        const stores = await services.pages.isbnSearches(isbn, country);
        const brand = await services.brand.current();
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderUnknownIsbnPage(isbn.isbn13, services.config.baseUrl, brand, stores));
      }
      throw new HttpError(
        404,
        outcome.kind === 'unknown' ? 'isbn_unknown' : 'book_not_created',
        outcome.kind === 'unknown'
          ? `No source knows the ISBN ${isbn.isbn13}.`
          : 'This book has no page yet.',
      );
    },
  );
};

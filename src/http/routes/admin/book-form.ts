import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Book } from '../../../services/admin/books.js';
import type { AuditActor, CommandResult } from '../../../services/admin/commands.js';
import type { Services } from '../../../services/container.js';
import { bookOr404, showFailedForm } from './books.js';
import { type AdminRoutes, IdParams, seeOther } from './context.js';
import { formOptionsOn, submitForm } from './submit-form.js';

/** One form on the admin book page: the command it runs and where a success goes. */
export interface BookFormCommand<Body> {
  /** The form shown again, with the errors beside its fields, when the body or the command is refused. */
  form: string;
  /** Refill the form with what was typed (text forms, the default); one-button forms are shown again empty. */
  refill?: boolean;
  run(actor: AuditActor, book: Book, body: Body): Promise<CommandResult<unknown>>;
  /** Where a success redirects (303). */
  done(book: Book): string;
}

/** `submitForm` for the book page's forms: the book (404) is what they act on, its page shows them again. */
async function submitBookForm<Body>(
  services: Services,
  request: FastifyRequest & { body: Body },
  reply: FastifyReply,
  command: BookFormCommand<Body>,
): Promise<FastifyReply> {
  return submitForm(request, reply, {
    load: () => bookOr404(services, request),
    values: command.refill === false ? () => ({}) : undefined,
    run: command.run,
    show: (book, failed) => showFailedForm(services, request, reply, book, { form: command.form, ...failed }),
    done: command.done,
  });
}

type AdminApp = Parameters<AdminRoutes>[0];

/**
 * The admin book page's posts (`/admin/books/:id/…`), registered on `app`: a form that runs a command
 * (`submitBookForm`), or a one-button removal that lands back on the page's `section` (a refused body
 * removes nothing).
 */
export function bookPageForms(app: AdminApp, services: Services) {
  return {
    form<Body extends TSchema>(path: string, body: Body, command: BookFormCommand<Static<Body>>): void {
      app.post(path, formOptionsOn(IdParams, body), async (request, reply) =>
        submitBookForm(services, request, reply, command),
      );
    },
    remove<Body extends TSchema>(
      path: string,
      body: Body,
      section: string,
      run: (actor: AuditActor, book: Book, body: Static<Body>) => Promise<unknown>,
    ): void {
      app.post(path, formOptionsOn(IdParams, body), async (request, reply) => {
        const book = await bookOr404(services, request);
        // The provider cannot resolve a generic schema's type here; the schema is `body`'s.
        if (!request.validationError) await run(request.adminActor, book, request.body as Static<Body>);
        return seeOther(reply, `/admin/books/${book.id}?notice=deleted#${section}`);
      });
    },
  };
}

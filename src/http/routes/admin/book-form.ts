import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Book } from '../../../services/admin/books.js';
import type { AuditActor, CommandResult } from '../../../services/admin/commands.js';
import type { Services } from '../../../services/container.js';
import { bookOr404, showFailedForm } from './books.js';
import { submitForm } from './submit-form.js';

/** One form on the admin book page: the command it runs and where a success goes. */
export interface BookFormCommand<Body> {
  /** The form shown again, with the errors beside its fields, when the body or the command is refused. */
  form: string;
  /** Refill the form with what was typed (text forms); one-button forms are shown again empty. */
  refill: boolean;
  run(actor: AuditActor, book: Book, body: Body): Promise<CommandResult<unknown>>;
  /** Where a success redirects (303). */
  done(book: Book): string;
}

/** `submitForm` for the book page's forms: the book (404) is what they act on, its page shows them again. */
export async function submitBookForm<Body>(
  services: Services,
  request: FastifyRequest & { body: Body },
  reply: FastifyReply,
  command: BookFormCommand<Body>,
): Promise<FastifyReply> {
  return submitForm(request, reply, {
    load: () => bookOr404(services, request),
    values: command.refill ? undefined : () => ({}),
    run: command.run,
    show: (book, failed) => showFailedForm(services, request, reply, book, { form: command.form, ...failed }),
    done: command.done,
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandContext, CommandResult } from '../../../services/admin/commands.js';
import type { Services } from '../../../services/container.js';
import type { Book } from '../../../store/books.js';
import { bookOr404, showFailedForm } from './books.js';
import { commandContext, seeOther } from './context.js';
import { schemaErrors, submitted } from './form-errors.js';

/** One form on the admin book page: the command it runs and where a success goes. */
export interface BookFormCommand<Body> {
  /** The form shown again, with the errors beside its fields, when the body or the command is refused. */
  form: string;
  /** Refill the form with what was typed (text forms); one-button forms are shown again empty. */
  refill: boolean;
  run(ctx: CommandContext, book: Book, body: Body): Promise<CommandResult<unknown>>;
  /** Where a success redirects (303). */
  done(book: Book): string;
}

/**
 * The skeleton every book form shares: load the book (404) → schema errors → the command → on any
 * error the book page again with the form refilled (422) → else redirect.
 */
export async function submitBookForm<Body>(
  services: Services,
  request: FastifyRequest & { body: Body },
  reply: FastifyReply,
  command: BookFormCommand<Body>,
): Promise<FastifyReply> {
  const book = await bookOr404(services, request);
  const values = command.refill ? submitted(request) : {};
  const errors = schemaErrors(request);
  const result = errors
    ? { ok: false as const, errors }
    : await command.run(commandContext(request, services), book, request.body);
  if (!result.ok) {
    return showFailedForm(services, request, reply, book, {
      form: command.form,
      values,
      errors: result.errors,
    });
  }
  return seeOther(reply, command.done(book));
}

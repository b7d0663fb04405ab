import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { type AuditActor, type CommandResult, invalid } from '../../../services/admin/commands.js';
import type { FormErrors, FormValues } from '../../views/admin/form.js';
import { seeOther } from './context.js';
import { schemaErrors, submitted } from './form-errors.js';

/** A form shown again: what it held and the errors beside its fields. */
export interface FailedForm {
  values: FormValues;
  errors: FormErrors;
}

/** A form as first shown: nothing typed, no errors. */
export const BLANK_FORM: FailedForm = { values: {}, errors: {} };

/** One admin form: what it acts on, the command it runs, the page that shows it again, where a success goes. */
export interface FormCommand<Target, Body, Value> {
  /** What the form acts on (a book, a list…), throwing the 404 when it is gone; null for a new thing. */
  load(): Promise<Target>;
  /** What the form is refilled with: by default what was typed (one-button forms give `{}`). */
  values?(): FormValues;
  run(actor: AuditActor, target: Target, body: Body): Promise<CommandResult<Value>>;
  /** The page again with the failed form (a 422, never a raw error body). */
  show(target: Target, failed: FailedForm): Promise<FastifyReply>;
  /** Where a success redirects (303, so reloading does not submit again). */
  done(target: Target, value: Value): string;
}

/**
 * The skeleton every admin form shares: load what it acts on → the body's schema errors (routes use
 * `attachValidation`) → the command → on any error the page again with the form refilled → else
 * post/redirect/get.
 */
export async function submitForm<Target, Body, Value>(
  request: FastifyRequest & { body: Body },
  reply: FastifyReply,
  command: FormCommand<Target, Body, Value>,
): Promise<FastifyReply> {
  const target = await command.load();
  const values = command.values ? command.values() : submitted(request);
  const errors = schemaErrors(request);
  const result = errors ? invalid(errors) : await command.run(request.adminActor, target, request.body);
  if (!result.ok) return command.show(target, { values, errors: result.errors });
  return seeOther(reply, command.done(target, result.value));
}

/** `load` for a form that creates something. */
export const nothing = async (): Promise<null> => null;

/**
 * The route options of an admin form's post: the body's schema errors are attached, never answered
 * raw (`submitForm` shows them beside the fields), and the route stays out of the OpenAPI document.
 * `config` carries `adminRole` for the admins-only areas.
 */
export const formOptions = <Body extends TSchema>(body: Body, config: FastifyContextConfig = {}) => ({
  config,
  attachValidation: true,
  schema: { hide: true, body },
});

/** `formOptions` for a form on one thing, which `params` name (`IdParams`: a book, a list…). */
export const formOptionsOn = <Params extends TSchema, Body extends TSchema>(
  params: Params,
  body: Body,
  config: FastifyContextConfig = {},
) => ({ config, attachValidation: true, schema: { hide: true, params, body } });

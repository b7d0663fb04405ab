import { findLink, type LinkRecord, updateLink } from '../../store/admin-links.js';
import { audited, type CommandContext, type CommandResult, invalid, ok } from './commands.js';
import { checkLinkFields, type LinkInput } from './link-fields.js';

/** SPEC 2.4 "destination update link": one row of a destination's bulk view of book links. */
export async function updateDestinationLink(
  ctx: CommandContext,
  destinationId: number,
  linkId: number,
  input: LinkInput,
): Promise<CommandResult<LinkRecord>> {
  const link = await findLink(ctx.db, linkId);
  if (!link || link.destinationId !== destinationId)
    return invalid({ link_id: 'This link is not on this destination.' });
  const checked = checkLinkFields(input);
  if ('errors' in checked) return invalid(checked.errors);
  const after = { linkId, ...checked.fields };
  await audited(ctx, (trx) => updateLink(trx, linkId, checked.fields), {
    action: 'book.link.update',
    entityType: 'book',
    entityId: link.bookId,
    before: link,
    after,
  });
  ctx.events.emit('book-changed', link.bookSlug);
  return ok(link);
}

/**
 * Outbound links: URL templates filled from a book's identifiers and text, the operator's affiliate
 * tags, per-book overrides and curated links, and the ordered groups a book page shows. Pure: the
 * caller loads rows and passes the clock in. One module per concern under links/.
 */
export * from './links/groups.js';
export { affiliateTagFor, destinationHosts, isAllowedRedirect } from './links/hosts.js';
export * from './links/resolve.js';
export {
  alternativeKind,
  fillAlternative,
  fillTemplate,
  fillTemplateLink,
  IDENTIFIER_PLACEHOLDERS,
  PLACEHOLDERS,
  placeholdersOf,
  placeholderValues,
  searchAuthor,
  searchTitle,
  templateAlternatives,
} from './links/templates.js';
export * from './links/types.js';
export * from './links/validation.js';

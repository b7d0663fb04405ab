import type { LinkFields } from '../../store/admin-links.js';
import { type FieldErrors, isHttpUrl, windowBound } from './commands.js';

/** SPEC 2.4 "book add destination" / "destination update link" fields, as submitted. */
export interface LinkInput {
  url: string;
  label: string;
  tagline: string;
  is_featured: boolean;
  display_priority?: number;
  active_from: string;
  active_until: string;
}

export function checkLinkFields(input: LinkInput): { fields: LinkFields } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const url = input.url.trim();
  if (url && !isHttpUrl(url)) errors.url = 'Use an http(s) address, or leave empty for the template URL.';
  const from = windowBound(input.active_from);
  const until = windowBound(input.active_until);
  if ('error' in from) errors.active_from = from.error;
  if ('error' in until) errors.active_until = until.error;
  if ('value' in from && 'value' in until && from.value && until.value && until.value < from.value) {
    errors.active_until = 'The window must end after it starts.';
  }
  if (Object.keys(errors).length > 0 || 'error' in from || 'error' in until) return { errors };
  return {
    fields: {
      url,
      label: input.label.trim(),
      tagline: input.tagline.trim(),
      isFeatured: input.is_featured,
      displayPriority: input.display_priority ?? 0,
      activeFrom: from.value,
      activeUntil: until.value,
    },
  };
}

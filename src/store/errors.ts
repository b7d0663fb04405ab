/** Dialect-specific error shapes, recognised in one place. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: string }).code;
  const unique =
    code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique || !column) return unique;
  const detail = `${error.message} ${(error as Error & { constraint?: string; detail?: string }).constraint ?? ''} ${
    (error as Error & { detail?: string }).detail ?? ''
  }`;
  return detail.includes(column);
}

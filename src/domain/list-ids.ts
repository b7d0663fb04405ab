// A list's public id is what its addresses carry (/list/{id}, /api/v1/lists/{id}). Lists made before
// migration 0025 keep their numeric id as text, so old links still work; new lists get a random one,
// so nobody can walk through everyone's lists by counting. Lower-case letters and digits only: no `-`
// (it separates the id from the name's words in `/list/{id}-{words}`) and nothing a URL must escape.

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** 36^12 ≈ 4.7·10^18 (62 bits): a guess finds one list among millions about once in 10^12 tries. */
export const LIST_ID_LENGTH = 12;
/** Old numeric ids (as text) and new random ones; the longest numeric id of a 64-bit key is 19 digits. */
export const LIST_ID_PATTERN = '^[0-9a-z]{1,20}$';

/** A new random public id; `pick(n)` returns a uniform whole number below n (crypto's randomInt). */
export function newListId(pick: (n: number) => number): string {
  for (;;) {
    let id = '';
    for (let i = 0; i < LIST_ID_LENGTH; i++) id += ALPHABET[pick(ALPHABET.length)];
    // All digits could be mistaken for (or collide with) an old numeric id: draw again (p ≈ 2·10^-7).
    if (!/^\d+$/.test(id)) return id;
  }
}

const LIST_REF = /^([0-9a-z]{1,20})(?:-|$)/;

/** The public id a list address's last segment (`{id}` or `{id}-{words}`) names; null when it names none. */
export function listIdOfRef(ref: string): string | null {
  return LIST_REF.exec(ref)?.[1] ?? null;
}

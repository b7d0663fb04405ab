/** Bits a key gets in the filter, and probes a key makes: about 1 % false positives when full. */
const BITS_PER_KEY = 10;
const PROBES = 4;
/** The filter's size in bits, bounded: 2^16 (8 KB) to 2^29 (64 MB, 50M keys at 10 bits each). */
const MIN_BITS = 2 ** 16;
const MAX_BITS = 2 ** 29;

/**
 * Which keys have been added, as a Bloom filter: `add` says "certainly new" or "maybe seen before",
 * never "new" for a key added earlier. A first import copies the entries of keys it certainly has not
 * written straight into the catalog and upserts the rest, without holding the keys themselves (10M
 * editions' keys as strings would be several hundred MB; their filter is 16 MB).
 */
export class KeyFilter {
  /** The filter's size in bits, a power of two. */
  readonly bits: number;
  private readonly words: Uint32Array;
  private readonly mask: number;

  /** A filter sized for about `keys` keys. */
  constructor(keys: number) {
    let bits = MIN_BITS;
    while (bits < keys * BITS_PER_KEY && bits < MAX_BITS) bits *= 2;
    this.bits = bits;
    this.words = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** Adds `key`; true when it may have been added before, false when it certainly was not. */
  add(key: string): boolean {
    // Two 32-bit FNV-1a hashes of the UTF-16 code units (two seeds), each finished with MurmurHash3's
    // mixer (FNV's low bits, the ones the mask keeps, depend only on the units' low bits), combined
    // into PROBES positions (Kirsch and Mitzenmacher's double hashing); the second is made odd so the
    // positions never repeat one another.
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const unit = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ unit, 0x01000193);
      h2 = Math.imul(h2 ^ unit, 0x01000193);
    }
    h1 = mix(h1);
    h2 = mix(h2) | 1;
    let seen = true;
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = (h1 + Math.imul(probe, h2)) & this.mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      const value = this.words[word] ?? 0;
      if ((value & flag) === 0) {
        seen = false;
        this.words[word] = value | flag;
      }
    }
    return seen;
  }
}

/** MurmurHash3's 32-bit finalizer: every input bit reaches every output bit. */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

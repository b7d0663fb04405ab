/** The six ways to get a book, in the order a book page shows them. */
export const DESTINATION_GROUPS = ['new', 'used', 'ebook', 'audiobook', 'library', 'free'] as const;
export type DestinationGroup = (typeof DESTINATION_GROUPS)[number];

export const GROUP_TITLES: Readonly<Record<DestinationGroup, string>> = {
  new: 'Buy new',
  used: 'Buy used',
  ebook: 'Ebook',
  audiobook: 'Audiobook',
  library: 'Borrow from a library',
  free: 'Read free',
};

export function isDestinationGroup(value: string): value is DestinationGroup {
  return (DESTINATION_GROUPS as readonly string[]).includes(value);
}

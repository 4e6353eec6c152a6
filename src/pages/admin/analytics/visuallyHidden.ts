/**
 * Read out by screen readers, not shown: the words an arrow, a dash or a shade says to the eye. Placed
 * absolutely, so the nearest positioned box (a scrolling table's) must contain it, or it widens the page.
 */
export const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

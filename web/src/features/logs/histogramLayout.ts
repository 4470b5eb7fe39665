/** The histogram's chart height (px): small enough to leave the list in view on a phone. */
export const HISTOGRAM_HEIGHT = 110;

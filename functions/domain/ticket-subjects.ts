/**
 * The subjects of a support request, without zod: the footer on every page imports the accessibility one, and the
 * first load carries no schema library (web first-load budget).
 */

/** The subject chosen when no service fits (part 2 §5). */
export const OTHER_SUBJECT = 'Altro';
/**
 * The subject of a report of an accessibility problem (the feedback mechanism a PA site must offer, AgID's
 * guidelines): the footer's 'Segnala un problema di accessibilità' opens the support form with it chosen.
 */
export const ACCESSIBILITY_SUBJECT = 'Accessibilità';

/** The subjects a citizen may choose: the service names, then 'Accessibilità' and 'Altro'. */
export const supportSubjects = (serviceNames: readonly string[]) => [
  ...serviceNames.filter((name) => name !== OTHER_SUBJECT && name !== ACCESSIBILITY_SUBJECT),
  ACCESSIBILITY_SUBJECT,
  OTHER_SUBJECT,
];

declare module "@socialgouv/jours-feries" {
  /** French public holidays of a year, by name (local midnights); Alsace-Moselle adds two. */
  export default function getJoursFeries(year: number, options?: { alsace?: boolean }): Record<string, Date>;
}

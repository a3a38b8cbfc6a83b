/** The keys of a draft whose values a text control edits. */
type TextKey<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D];

/**
 * A form whose values a component holds as a draft (the card's settings): `field("dailyCap")` gives a field, a
 * select or a text area its value, its change and its French error in one spread.
 */
export function bindDraft<D>(
  draft: D,
  update: (patch: Partial<D>) => void,
  errors: Record<string, string | undefined>,
) {
  return <K extends TextKey<D> & string>(key: K) => ({
    value: draft[key] as string,
    // A select's choices are the draft's own values: what it hands back has the draft's type.
    onValue: (value: string) => update({ [key]: value } as Partial<D>),
    error: errors[key],
  });
}

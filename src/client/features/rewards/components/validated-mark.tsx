import { Glyph } from "../../../components/loyalty/glyph.tsx";

/** The big white tick of a validated reward on its green panel: the shopper's screen and the counter's say it alike. */
export function ValidatedMark() {
  return (
    <span
      className="flex size-20 items-center justify-center rounded-full bg-white text-emerald-700 shadow-md"
      aria-hidden="true"
    >
      <Glyph name="check" className="size-12" />
    </span>
  );
}

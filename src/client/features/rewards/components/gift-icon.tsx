import { PathIcon } from "../../../components/icons.tsx";
/** A gift, in the stroke style of the app's glyphs; decorative. */
export function GiftIcon({ className = "size-6" }: { className?: string }) {
  return (
    <PathIcon
      d="M3 8h18v4H3zM5 12v9h14v-9M12 8v13M12 8S10.5 3 8 3a2.5 2.5 0 0 0 0 5M12 8s1.5-5 4-5a2.5 2.5 0 0 1 0 5"
      className={className}
    />
  );
}

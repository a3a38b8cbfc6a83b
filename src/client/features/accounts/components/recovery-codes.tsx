import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "./copy-button.tsx";

/** The recovery codes, shown once: each works a single time, instead of a code from the phone. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join("\n");
  const download = () => {
    const url = URL.createObjectURL(
      new Blob([`Fidèle — codes de secours\n\n${text}\n`], { type: "text/plain;charset=utf-8" }),
    );
    const link = document.createElement("a");
    link.href = url;
    link.download = "fidele-codes-de-secours.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="flex flex-col gap-4">
      <p className="text-stone-800 dark:text-stone-200">
        Gardez ces <strong>{codes.length} codes de secours</strong> en lieu sûr. Si vous perdez votre téléphone, chacun
        vous permettra de vous connecter une fois. <strong>Ils ne seront plus affichés.</strong>
      </p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-xl bg-stone-100 p-4 font-mono text-base tracking-wide dark:bg-stone-800"
        aria-label="Codes de secours"
      >
        {codes.map((code) => (
          <li key={code} className="text-center" data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <CopyButton text={text} label="Copier les codes" />
      <Button variant="ghost" full onClick={download}>
        Télécharger les codes
      </Button>
      <Button full onClick={onDone}>
        J'ai mis mes codes à l'abri
      </Button>
    </div>
  );
}

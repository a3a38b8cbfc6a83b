import { type FormEvent, type RefObject, useState } from "react";
import { PERSONAL_QR_PREFIX, parsePersonalCode } from "../../../../domain/loyalty/personal-code.ts";
import { PREPAID_QR_PREFIX, parsePrepaidCode } from "../../../../domain/loyalty/prepaid.ts";
import { parseRedemptionCode } from "../../../../domain/loyalty/rewards.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { CameraVideo } from "../../../components/qr/camera-video.tsx";
import { CodeEntry } from "../../../components/qr/code-entry.tsx";
import { type CameraProblem, type QrReading, useQrCamera } from "../../../components/qr/use-qr-camera.ts";

/** How staff enter a reward's code at the counter: the camera (QR code) or typing the six characters. */

const BAD_FORMAT = "Ce code n'a pas le bon format : 6 lettres et chiffres.";

const PROBLEMS: Record<CameraProblem, string> = {
  unsupported: "Ce navigateur ne donne pas accès à la caméra sur cette page : tapez le code ci-dessous.",
  denied:
    "Accès à la caméra refusé. Autorisez la caméra pour ce site (icône à gauche de l'adresse), ou tapez le code ci-dessous.",
  "no-camera": "Aucune caméra sur cet appareil : tapez le code ci-dessous.",
  busy: "La caméra est utilisée par une autre application. Fermez-la, ou tapez le code ci-dessous.",
  reader: "Le lecteur de QR code n'a pas pu se charger. Vérifiez la connexion, ou tapez le code ci-dessous.",
  failed: "La caméra n'a pas pu démarrer. Réessayez, ou tapez le code ci-dessous.",
};

type CounterCode = { kind: "reward" | "personal" | "prepaid"; code: string };

/**
 * A decoded value: a "FIDELE-R:…" code is the reward to validate, a shopper's « Ma carte client » is a visit to
 * credit, any other QR code gets a hint.
 */
const readCounterCode = (value: string): QrReading<CounterCode> => {
  const upper = value.toUpperCase();
  // FIDELE-R: a reward being redeemed; FIDELE-L: a prize lot won in a contest (same code format, same desk).
  const code = /^FIDELE-[RL]:/.test(upper) ? parseRedemptionCode(value.replace(/^FIDELE-L:/i, "")) : null;
  if (code) return { code: { kind: "reward", code } };
  const personal = upper.startsWith(PERSONAL_QR_PREFIX) ? parsePersonalCode(value) : null;
  if (personal) return { code: { kind: "personal", code: personal } };
  // FIDELE-P: a bundle or a gift card to use (ADR 0049).
  const prepaid = upper.startsWith(PREPAID_QR_PREFIX) ? parsePrepaidCode(value) : null;
  if (prepaid) return { code: { kind: "prepaid", code: prepaid } };
  return { hint: "Ce QR code n'est pas une récompense Fidèle : visez le code affiché sur le téléphone du client." };
};

/** The camera and its QR reader (the wasm reader loads only here, when staff turn the camera on). */
export function CameraScan({
  onCode,
  onPersonalCode,
  onPrepaidCode,
}: {
  onCode: (code: string) => void;
  onPersonalCode: (code: string) => void;
  onPrepaidCode: (code: string) => void;
}) {
  const { videoRef, camera, hint, start, stop } = useQrCamera({
    read: readCounterCode,
    onCode: (found: CounterCode) =>
      found.kind === "reward"
        ? onCode(found.code)
        : found.kind === "prepaid"
          ? onPrepaidCode(found.code)
          : onPersonalCode(found.code),
  });

  const isOn = camera.kind === "scanning" || camera.kind === "starting";
  return (
    <div className="flex flex-col gap-3">
      <div
        className={`relative w-full overflow-hidden rounded-3xl bg-stone-900 ring-1 ring-white/10 ${isOn ? "aspect-square" : "h-0"}`}
      >
        <CameraVideo videoRef={videoRef} isScanning={camera.kind === "scanning"} />
        {camera.kind === "scanning" ? (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center" aria-hidden="true">
            <div className="size-[65%] rounded-3xl border-4 border-accent-400/90" />
          </div>
        ) : null}
        {camera.kind === "starting" ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-white">
            <span
              className="size-10 animate-spin rounded-full border-4 border-white border-t-transparent"
              aria-hidden="true"
            />
            <p className="font-semibold" role="status">
              Démarrage de la caméra…
            </p>
          </div>
        ) : null}
      </div>
      {camera.kind === "scanning" ? (
        <>
          <p className="text-center text-sm text-stone-700 dark:text-stone-300" role="status">
            Visez le QR code affiché sur le téléphone du client…
          </p>
          <Button variant="secondary" full onClick={stop}>
            Arrêter la caméra
          </Button>
        </>
      ) : camera.kind === "starting" ? null : (
        <Button full onClick={() => void start()}>
          <Glyph name="camera" className="size-5" />
          Scanner le QR code du client
        </Button>
      )}
      {camera.kind === "blocked" ? <Notice tone="error">{PROBLEMS[camera.problem]}</Notice> : null}
      {hint ? <Notice>{hint}</Notice> : null}
    </div>
  );
}

export function CodeForm({
  onCode,
  onPersonalCode,
  onPrepaidCode,
  busy,
  inputRef,
}: {
  onCode: (code: string) => void;
  onPersonalCode: (code: string) => void;
  onPrepaidCode: (code: string) => void;
  busy: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("code") ?? "");
    if (!value.trim()) return setError("Saisissez le code affiché sous le QR code du client.");
    const code = parseRedemptionCode(value);
    // 8 characters: a shopper's « Ma carte client », to credit a visit rather than a reward.
    const personal = code ? null : parsePersonalCode(value);
    if (personal) return onPersonalCode(personal);
    // 7 characters: a bundle or a gift card (ADR 0049).
    const prepaid = code ? null : parsePrepaidCode(value);
    if (prepaid) return onPrepaidCode(prepaid);
    if (!code) return setError(BAD_FORMAT);
    setError(null);
    onCode(code);
  };
  return (
    <CodeEntry
      label="Code de la récompense (6 caractères)"
      placeholder="ABC234"
      look="code"
      maxLength={24}
      inputRef={inputRef}
      error={error}
      busy={busy}
      submitLabel="Rechercher le code"
      onSubmit={submit}
    />
  );
}

import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { parseScanCode, type ScanCode, scanUrl } from "../../../../domain/loyalty/scan-code.ts";
import { normaliseShortCode } from "../../../../domain/loyalty/short-code.ts";
import { errorText } from "../../../lib/api-client.ts";
import { resolveShortCode } from "../api/resolve-short-code.ts";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { CameraVideo } from "../../../components/qr/camera-video.tsx";
import { CodeEntry } from "../../../components/qr/code-entry.tsx";
import { type CameraProblem, type QrReading, useQrCamera } from "../../../components/qr/use-qr-camera.ts";

/** The French explanation of each camera problem. */
const PROBLEMS: Record<CameraProblem, { title: string; message: string }> = {
  unsupported: {
    title: "Caméra indisponible",
    message: "Ce navigateur ne donne pas accès à la caméra sur cette page. Ouvrez Fidèle dans Chrome ou Safari, ou saisissez le code ci-dessous.",
  },
  denied: {
    title: "Accès à la caméra refusé",
    message:
      "Pour scanner, autorisez la caméra pour ce site : touchez l'icône à gauche de l'adresse (cadenas ou réglages), puis « Caméra » → « Autoriser », et rechargez la page. En attendant, saisissez le code ci-dessous.",
  },
  "no-camera": { title: "Aucune caméra trouvée", message: "Cet appareil n'a pas de caméra utilisable. Saisissez le code de la boutique ci-dessous." },
  busy: {
    title: "Caméra occupée",
    message: "La caméra est utilisée par une autre application. Fermez-la puis réessayez, ou saisissez le code ci-dessous.",
  },
  reader: {
    title: "Lecteur indisponible",
    message: "Le lecteur de QR code n'a pas pu se charger. Vérifiez votre connexion et réessayez, ou saisissez le code de la boutique ci-dessous.",
  },
  failed: { title: "Caméra indisponible", message: "La caméra n'a pas pu démarrer. Réessayez, ou saisissez le code de la boutique ci-dessous." },
};

/** A decoded value: a Fidèle shop code opens the shop, anything else gets a hint. */
const readShopCode = (value: string): QrReading<ScanCode> => {
  const code = parseScanCode(value);
  return code && (code.token || code.poster) ? { code } : { hint: "Ce QR code n'est pas un code de boutique Fidèle. Visez le code affiché au comptoir." };
};

const pathOf = (code: ScanCode) => scanUrl("", code);

/**
 * /scanner: the in-app camera scanner. The QR reader (wasm) is loaded only here, and only once the person
 * turns the camera on; a decoded Fidèle code opens /boutique/…, which credits the visit. Typing or pasting
 * the code works without a camera.
 */
export default function ScannerPage() {
  const navigate = useNavigate();
  const open = useCallback((code: ScanCode) => navigate(pathOf(code)), [navigate]);
  const { videoRef, camera, hint, start, stop } = useQrCamera({
    read: readShopCode,
    onCode: open,
    video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
  });
  const problem = camera.kind === "blocked" ? PROBLEMS[camera.problem] : null;

  // Camera already allowed on this site: no need to ask again, start at once.
  useEffect(() => {
    let cancelled = false;
    navigator.permissions
      ?.query({ name: "camera" as PermissionName })
      .then((status) => {
        if (!cancelled && status.state === "granted") void start();
      })
      .catch(() => {});
    return () => {
      cancelled = true;
      stop();
    };
  }, [start, stop]);

  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-5">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Scanner un code</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">Visez le QR code affiché au comptoir de la boutique : votre passage est crédité aussitôt.</p>
      </div>

      <div className="relative aspect-[3/4] w-full overflow-hidden rounded-3xl bg-stone-900 shadow-lg ring-1 ring-white/10">
        <CameraVideo videoRef={videoRef} isScanning={camera.kind === "scanning"} />
        {camera.kind === "scanning" ? (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center" aria-hidden="true">
            <div className="relative size-[68%]">
              {["left-0 top-0 border-l-4 border-t-4 rounded-tl-2xl", "right-0 top-0 border-r-4 border-t-4 rounded-tr-2xl", "bottom-0 left-0 border-b-4 border-l-4 rounded-bl-2xl", "bottom-0 right-0 border-b-4 border-r-4 rounded-br-2xl"].map((corner) => (
                <span key={corner} className={`absolute size-10 border-accent-400 ${corner}`} />
              ))}
              <span className="absolute inset-x-3 top-1/2 h-0.5 animate-pulse bg-accent-400/80" />
            </div>
          </div>
        ) : (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 p-6 text-center text-white">
            {camera.kind === "starting" ? (
              <>
                <span className="size-12 animate-spin rounded-full border-4 border-white border-t-transparent" aria-hidden="true" />
                <p className="font-semibold" role="status">
                  Démarrage de la caméra…
                </p>
              </>
            ) : camera.kind === "blocked" ? (
              <>
                <GlyphBadge name="cameraOff" tone="warning" />
                <p className="text-lg font-bold">{problem?.title}</p>
                <Button variant="secondary" onClick={() => void start()}>
                  Réessayer
                </Button>
              </>
            ) : (
              <>
                <GlyphBadge name="camera" />
                <p className="text-sm text-stone-200">
                  Fidèle a besoin de la caméra pour lire le code. L'image reste sur votre téléphone : rien n'est enregistré ni envoyé.
                </p>
                <Button onClick={() => void start()}>
                  <Glyph name="camera" className="size-5" />
                  Activer la caméra
                </Button>
              </>
            )}
          </div>
        )}
      </div>

      {camera.kind === "scanning" ? (
        <p className="text-center text-sm text-stone-700 dark:text-stone-300" role="status">
          Recherche d'un code… Tenez le téléphone à 20 cm environ.
        </p>
      ) : null}
      {problem ? <Notice tone="error">{problem.message}</Notice> : null}
      {hint ? <Notice tone="info">{hint}</Notice> : null}

      <ManualEntry onCode={open} />
    </div>
  );
}

/** Without a camera: type the short code shown under the counter's QR code (or paste its link). */
function ManualEntry({ onCode }: { onCode: (code: ScanCode) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [isResolving, setResolving] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("code") ?? "");
    if (!value.trim()) return setError("Saisissez le code affiché sous le QR code du comptoir.");
    // The 6-character code under the counter's QR: the server says which shop's code of the moment it is.
    if (normaliseShortCode(value)) {
      setResolving(true);
      try {
        const { scanUid, token } = await resolveShortCode(value);
        setError(null);
        return onCode({ scanUid, token, poster: null });
      } catch (e) {
        return setError(errorText(e));
      } finally {
        setResolving(false);
      }
    }
    const code = parseScanCode(value);
    if (!code) return setError("Ce code n'est pas reconnu. Tapez les 6 caractères affichés sous le QR code du comptoir, ou copiez le lien complet affiché sous le QR code du comptoir (il contient « /boutique/ »).");
    if (!code.token && !code.poster) return setError("Ce code est incomplet : il manque la partie après « ? ». Copiez le lien en entier.");
    setError(null);
    onCode(code);
  };
  return (
    <CodeEntry
      label="Tapez le code de 6 caractères affiché sous le QR code du comptoir (ou collez son lien)."
      placeholder="Par exemple K7M 4PX"
      error={error}
      busy={isResolving}
      submitLabel="Valider le code"
      onSubmit={(e) => void submit(e)}
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Glyph name="keyboard" className="size-5" />
        Saisir le code
      </h2>
    </CodeEntry>
  );
}

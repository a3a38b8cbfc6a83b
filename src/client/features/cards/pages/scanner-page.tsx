import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { parseScanCode, type ScanCode, scanUrl } from "../../../../domain/loyalty/scan-code.ts";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import type { QrDetector } from "../../../components/qr/qr-detector.ts";

type Camera =
  | { kind: "intro" }
  | { kind: "starting" }
  | { kind: "scanning" }
  | { kind: "blocked"; title: string; message: string };

/** The French explanation of a getUserMedia failure. */
function cameraProblem(error: unknown): { title: string; message: string } {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return {
        title: "Accès à la caméra refusé",
        message:
          "Pour scanner, autorisez la caméra pour ce site : touchez l'icône à gauche de l'adresse (cadenas ou réglages), puis « Caméra » → « Autoriser », et rechargez la page. En attendant, saisissez le code ci-dessous.",
      };
    case "NotFoundError":
    case "OverconstrainedError":
      return { title: "Aucune caméra trouvée", message: "Cet appareil n'a pas de caméra utilisable. Saisissez le code de la boutique ci-dessous." };
    case "NotReadableError":
    case "AbortError":
      return {
        title: "Caméra occupée",
        message: "La caméra est utilisée par une autre application. Fermez-la puis réessayez, ou saisissez le code ci-dessous.",
      };
    default:
      return { title: "Caméra indisponible", message: "La caméra n'a pas pu démarrer. Réessayez, ou saisissez le code de la boutique ci-dessous." };
  }
}

const pathOf = (code: ScanCode) => scanUrl("", code);

/**
 * /scanner: the in-app camera scanner. The QR reader (wasm) is loaded only here, and only once the person
 * turns the camera on; a decoded Fidèle code opens /boutique/…, which credits the visit. Typing or pasting
 * the code works without a camera.
 */
export default function ScannerPage() {
  const navigate = useNavigate();
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<number | undefined>(undefined);
  const [camera, setCamera] = useState<Camera>({ kind: "intro" });
  const [hint, setHint] = useState<string | null>(null);

  const stop = useCallback(() => {
    window.clearTimeout(timerRef.current);
    timerRef.current = undefined;
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  const open = useCallback(
    (code: ScanCode) => {
      stop();
      navigate(pathOf(code));
    },
    [navigate, stop],
  );

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setCamera({
        kind: "blocked",
        title: "Caméra indisponible",
        message: "Ce navigateur ne donne pas accès à la caméra sur cette page. Ouvrez Fidèle dans Chrome ou Safari, ou saisissez le code ci-dessous.",
      });
      return;
    }
    setCamera({ kind: "starting" });
    setHint(null);
    // The camera and the reader load side by side; each failure has its own explanation.
    const [stream, reader] = await Promise.allSettled([
      navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false }),
      import("../../../components/qr/qr-detector.ts").then((engine) => engine.createQrDetector()),
    ]);
    if (stream.status === "fulfilled") streamRef.current = stream.value;
    if (stream.status === "rejected") {
      stop();
      setCamera({ kind: "blocked", ...cameraProblem(stream.reason) });
      return;
    }
    if (reader.status === "rejected") {
      stop();
      setCamera({
        kind: "blocked",
        title: "Lecteur indisponible",
        message: "Le lecteur de QR code n'a pas pu se charger. Vérifiez votre connexion et réessayez, ou saisissez le code de la boutique ci-dessous.",
      });
      return;
    }
    const detector: QrDetector = reader.value;
    const video = videoRef.current;
    if (!video) return stop();
    video.srcObject = stream.value;
    await video.play().catch(() => {});
    setCamera({ kind: "scanning" });
    const tick = async () => {
      const video = videoRef.current;
      if (!streamRef.current || !video) return;
      if (video.readyState >= 2) {
        try {
          for (const value of await detector.detect(video)) {
            const code = parseScanCode(value);
            if (code && (code.token || code.poster)) return open(code);
            setHint("Ce QR code n'est pas un code de boutique Fidèle. Visez le code affiché au comptoir.");
          }
        } catch {
          // A frame that cannot be read (camera still warming up): try the next one.
        }
      }
      timerRef.current = window.setTimeout(tick, 200);
    };
    void tick();
  }, [open, stop]);

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
        <video
          ref={videoRef}
          className={`absolute inset-0 size-full object-cover ${camera.kind === "scanning" ? "" : "invisible"}`}
          muted
          playsInline
          aria-label="Image de la caméra"
        />
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
                <p className="text-lg font-bold">{camera.title}</p>
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
      {camera.kind === "blocked" ? <Notice tone="error">{camera.message}</Notice> : null}
      {hint ? <Notice tone="info">{hint}</Notice> : null}

      <ManualEntry onCode={open} />
    </div>
  );
}

/** Without a camera: paste or type the link shown under the counter's QR code. */
function ManualEntry({ onCode }: { onCode: (code: ScanCode) => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("code") ?? "");
    if (!value.trim()) return setError("Saisissez ou collez le code de la boutique.");
    const code = parseScanCode(value);
    if (!code) return setError("Ce code n'est pas reconnu. Copiez le lien complet affiché sous le QR code du comptoir (il contient « /boutique/ »).");
    if (!code.token && !code.poster) return setError("Ce code est incomplet : il manque la partie après « ? ». Copiez le lien en entier.");
    setError(null);
    onCode(code);
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Glyph name="keyboard" className="size-5" />
        Saisir le code
      </h2>
      <label htmlFor={id} className="text-sm text-stone-700 dark:text-stone-300">
        Collez ou tapez le lien affiché sous le QR code du comptoir.
      </label>
      <input
        id={id}
        name="code"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="…/boutique/AbC123…?t=…"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`min-h-12 rounded-xl border bg-white px-4 text-base text-stone-900 placeholder:text-stone-500 dark:bg-stone-950 dark:text-stone-100 ${
          error ? "border-red-600" : "border-stone-300 dark:border-stone-700"
        }`}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700 dark:text-red-400" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" full>
        Valider le code
      </Button>
    </form>
  );
}

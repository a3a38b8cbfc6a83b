import { type CounterLot, LotHandOver, lookupLot } from "../../../components/contests/lot-hand-over.tsx";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";
import { parseRedemptionCode } from "../../../../domain/loyalty/rewards.ts";
import { formatMomentFr } from "../../../components/loyalty/format.ts";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import {
  type CounterRedemption,
  lookupRedemption,
  refuseRedemption,
  validateRedemption,
} from "../api/counter-redemption.ts";
import { rewardsKeys } from "../api/keys.ts";
import { GiftIcon } from "../components/gift-icon.tsx";
import type { QrDetector } from "../../../components/qr/qr-detector.ts";
import { formatMinutesSeconds, minutesSecondsFr, useNow } from "../components/use-now.ts";

const BAD_FORMAT = "Ce code n'a pas le bon format : 6 lettres et chiffres.";

type Camera = { kind: "off" } | { kind: "starting" } | { kind: "scanning" } | { kind: "blocked"; message: string };

function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError")
    return "Accès à la caméra refusé. Autorisez la caméra pour ce site (icône à gauche de l'adresse), ou tapez le code ci-dessous.";
  if (name === "NotFoundError" || name === "OverconstrainedError")
    return "Aucune caméra sur cet appareil : tapez le code ci-dessous.";
  if (name === "NotReadableError" || name === "AbortError")
    return "La caméra est utilisée par une autre application. Fermez-la, ou tapez le code ci-dessous.";
  return "La caméra n'a pas pu démarrer. Réessayez, ou tapez le code ci-dessous.";
}

/**
 * The camera and its QR reader (the wasm reader loads only here, when staff turn the camera on). A decoded
 * "FIDELE-R:…" code is handed over; any other QR code gets a hint.
 */
function CameraScan({ onCode }: { onCode: (code: string) => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<number | undefined>(undefined);
  const [camera, setCamera] = useState<Camera>({ kind: "off" });
  const [hint, setHint] = useState<string | null>(null);

  const stop = useCallback(() => {
    window.clearTimeout(timerRef.current);
    timerRef.current = undefined;
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setCamera({
        kind: "blocked",
        message: "Ce navigateur ne donne pas accès à la caméra sur cette page : tapez le code ci-dessous.",
      });
      return;
    }
    setCamera({ kind: "starting" });
    setHint(null);
    const [stream, reader] = await Promise.allSettled([
      navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false }),
      import("../../../components/qr/qr-detector.ts").then((engine) => engine.createQrDetector()),
    ]);
    if (stream.status === "fulfilled") streamRef.current = stream.value;
    if (stream.status === "rejected") {
      stop();
      setCamera({ kind: "blocked", message: cameraProblem(stream.reason) });
      return;
    }
    if (reader.status === "rejected") {
      stop();
      setCamera({
        kind: "blocked",
        message: "Le lecteur de QR code n'a pas pu se charger. Vérifiez la connexion, ou tapez le code ci-dessous.",
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
      const v = videoRef.current;
      if (!streamRef.current || !v) return;
      if (v.readyState >= 2) {
        try {
          for (const value of await detector.detect(v)) {
            const code = /^FIDELE-[RL]:/i.test(value) ? parseRedemptionCode(value.replace(/^FIDELE-L:/i, "")) : null;
            if (code) {
              stop();
              setCamera({ kind: "off" });
              onCode(code);
              return;
            }
            setHint("Ce QR code n'est pas une récompense Fidèle : visez le code affiché sur le téléphone du client.");
          }
        } catch {
          // A frame that cannot be read (camera warming up): try the next one.
        }
      }
      timerRef.current = window.setTimeout(tick, 200);
    };
    void tick();
  }, [onCode, stop]);

  useEffect(() => stop, [stop]);

  const isOn = camera.kind === "scanning" || camera.kind === "starting";
  return (
    <div className="flex flex-col gap-3">
      <div
        className={`relative w-full overflow-hidden rounded-3xl bg-stone-900 ring-1 ring-white/10 ${isOn ? "aspect-square" : "h-0"}`}
      >
        <video
          ref={videoRef}
          className={`absolute inset-0 size-full object-cover ${camera.kind === "scanning" ? "" : "invisible"}`}
          muted
          playsInline
          aria-label="Image de la caméra"
        />
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
          <Button
            variant="secondary"
            full
            onClick={() => {
              stop();
              setCamera({ kind: "off" });
            }}
          >
            Arrêter la caméra
          </Button>
        </>
      ) : camera.kind === "starting" ? null : (
        <Button full onClick={() => void start()}>
          <Glyph name="camera" className="size-5" />
          Scanner le QR code du client
        </Button>
      )}
      {camera.kind === "blocked" ? <Notice tone="error">{camera.message}</Notice> : null}
      {hint ? <Notice>{hint}</Notice> : null}
    </div>
  );
}

function CodeForm({
  onCode,
  busy,
  inputRef,
}: {
  onCode: (code: string) => void;
  busy: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("code") ?? "");
    if (!value.trim()) return setError("Saisissez le code affiché sous le QR code du client.");
    const code = parseRedemptionCode(value);
    if (!code) return setError(BAD_FORMAT);
    setError(null);
    onCode(code);
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        Code de la récompense (6 caractères)
      </label>
      <input
        ref={inputRef}
        id={id}
        name="code"
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        maxLength={24}
        placeholder="ABC234"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`min-h-14 rounded-xl border bg-white px-4 text-center font-mono text-2xl font-bold uppercase tracking-[0.3em] text-stone-900 placeholder:text-stone-400 dark:bg-stone-950 dark:text-stone-100 ${
          error ? "border-red-600" : "border-stone-300 dark:border-stone-700"
        }`}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700 dark:text-red-400" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" full isLoading={busy}>
        Rechercher le code
      </Button>
    </form>
  );
}

const STATUS_TONES: Record<CounterRedemption["status"], string> = {
  pending: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  validated: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  refused: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  cancelled: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
  expired: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
};

function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const now = useNow(1000);
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return <span className="font-semibold text-red-800 dark:text-red-300">Temps écoulé</span>;
  return (
    <span>
      <span className="font-mono font-bold tabular-nums" aria-hidden="true">
        {formatMinutesSeconds(left)}
      </span>
      <span className="sr-only">{minutesSecondsFr(left)}</span>
    </span>
  );
}

/** The redemption a code names: what to hand over, to whom, its status, and Valider / Refuser while pending. */
function RedemptionPanel({
  shopId,
  redemption,
  onChange,
  onNext,
}: {
  shopId: string;
  redemption: CounterRedemption;
  onChange: (r: CounterRedemption, outcome: "validated" | "refused") => void;
  onNext: () => void;
}) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"idle" | "validating" | "refusing" | "sending-refusal">("idle");
  const [error, setError] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const isPending = redemption.status === "pending";

  const settle = async (action: () => Promise<CounterRedemption>, outcome: "validated" | "refused") => {
    setError(null);
    try {
      const updated = await action();
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
      onChange(updated, outcome);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "Une erreur inattendue est survenue. Réessayez.");
      setMode(outcome === "refused" ? "refusing" : "idle");
      // Someone else may have settled it (or it expired): show what it is now.
      if (e instanceof ApiError && e.status === 409) {
        lookupRedemption(shopId, redemption.code)
          .then((r) => onChange(r, outcome))
          .catch(() => {});
      }
    }
  };

  const validate = () => {
    setMode("validating");
    void settle(() => validateRedemption(shopId, redemption.id), "validated");
  };
  const refuse = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
    if (reason.length < 3) return setReasonError("Motif : au moins 3 caractères.");
    if (reason.length > 200) return setReasonError("Motif : au plus 200 caractères.");
    setReasonError(null);
    setMode("sending-refusal");
    void settle(() => refuseRedemption(shopId, redemption.id, reason), "refused");
  };

  return (
    <section
      aria-label="Récompense à valider"
      className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <div className="flex items-center gap-4 p-5">
        {redemption.photoUrl ? (
          <img src={redemption.photoUrl} alt="" className="size-20 shrink-0 rounded-2xl object-cover" />
        ) : (
          <span className="flex size-20 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
            <GiftIcon className="size-10" />
          </span>
        )}
        <div className="min-w-0">
          <h2 className="text-xl font-bold leading-tight break-words">{redemption.title}</h2>
          <p className="mt-1">
            <span className="rounded-full bg-accent-400 px-2.5 py-0.5 text-sm font-bold text-stone-950">
              {redemption.costLabel}
            </span>
          </p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-px border-y border-stone-200 bg-stone-200 text-sm dark:border-stone-800 dark:bg-stone-800">
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">Client</dt>
          <dd className="text-lg font-semibold">{redemption.customerFirstName}</dd>
        </div>
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">Code</dt>
          <dd className="font-mono text-lg font-bold tracking-widest">{redemption.code}</dd>
        </div>
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">Statut</dt>
          <dd>
            <span
              className={`mt-0.5 inline-block rounded-full px-2.5 py-0.5 font-semibold ${STATUS_TONES[redemption.status]}`}
              data-testid="counter-status"
            >
              {redemption.statusLabel}
            </span>
          </dd>
        </div>
        <div className="bg-white p-3 dark:bg-stone-900">
          <dt className="text-stone-600 dark:text-stone-400">{isPending ? "Temps restant" : "Décidée"}</dt>
          <dd className="text-lg">
            {isPending ? (
              <TimeLeft expiresAt={redemption.expiresAt} />
            ) : redemption.decidedAt ? (
              formatMomentFr(redemption.decidedAt)
            ) : (
              "—"
            )}
          </dd>
        </div>
      </dl>
      <div className="flex flex-col gap-3 p-5">
        {error ? <Notice tone="error">{error}</Notice> : null}
        {!isPending ? (
          <Notice>
            {redemption.status === "validated"
              ? `Déjà validée${redemption.decidedByName ? ` par ${redemption.decidedByName}` : ""}${redemption.decidedAt ? ` ${formatMomentFr(redemption.decidedAt)}` : ""} : ne la remettez pas une seconde fois.`
              : redemption.status === "refused"
                ? `Refusée${redemption.refuseReason ? ` : ${redemption.refuseReason}` : ""}. Les points ont été rendus au client.`
                : redemption.status === "expired"
                  ? "Expirée : le client doit la redemander depuis son téléphone. Ses points lui ont été rendus."
                  : "Annulée par le client : rien à remettre."}
          </Notice>
        ) : mode === "refusing" || mode === "sending-refusal" ? (
          <form onSubmit={refuse} noValidate className="flex flex-col gap-3">
            <TextareaField
              label="Motif du refus (le client le lira)"
              name="reason"
              maxLength={200}
              placeholder="Produit indisponible aujourd'hui"
              hint="De 3 à 200 caractères. Les points sont rendus au client."
              error={reasonError ?? undefined}
              onChange={() => setReasonError(null)}
              className="[&_textarea]:min-h-24"
            />
            <div className="flex flex-col gap-2">
              <Button type="submit" variant="danger" full isLoading={mode === "sending-refusal"}>
                Confirmer le refus
              </Button>
              <Button variant="ghost" full onClick={() => setMode("idle")} disabled={mode === "sending-refusal"}>
                Retour
              </Button>
            </div>
          </form>
        ) : (
          <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)] gap-2">
            <Button onClick={validate} isLoading={mode === "validating"} className="min-h-14 text-lg">
              <Glyph name="check" className="size-5" />
              Valider
            </Button>
            <Button
              variant="secondary"
              onClick={() => setMode("refusing")}
              disabled={mode === "validating"}
              className="min-h-14"
            >
              Refuser
            </Button>
          </div>
        )}
        {!isPending ? (
          <Button variant="secondary" full onClick={onNext}>
            Valider une autre récompense
          </Button>
        ) : null}
      </div>
    </section>
  );
}

function Outcome({
  redemption,
  outcome,
  onNext,
}: {
  redemption: CounterRedemption;
  outcome: "validated" | "refused";
  onNext: () => void;
}) {
  const ok = outcome === "validated" && redemption.status === "validated";
  return (
    <div className="flex flex-col gap-4">
      <div
        role="status"
        className={`flex flex-col items-center gap-3 rounded-3xl px-6 py-8 text-center shadow-sm ${ok ? "bg-emerald-700 text-white" : "bg-white ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"}`}
        data-testid="counter-outcome"
      >
        {ok ? (
          <span
            className="flex size-20 items-center justify-center rounded-full bg-white text-emerald-700"
            aria-hidden="true"
          >
            <Glyph name="check" className="size-12" />
          </span>
        ) : (
          <GlyphBadge name="alert" tone="danger" size="lg" />
        )}
        <h2 className="text-3xl font-black tracking-tight">{ok ? "Récompense validée" : "Récompense refusée"}</h2>
        <p className="text-lg">
          {ok
            ? `Remettez « ${redemption.title} » à ${redemption.customerFirstName}.`
            : `Refus envoyé à ${redemption.customerFirstName}${redemption.refuseReason ? ` : « ${redemption.refuseReason} »` : ""}. Ses points lui ont été rendus.`}
        </p>
      </div>
      <Button full onClick={onNext} className="min-h-14 text-lg">
        Valider une autre récompense
      </Button>
    </div>
  );
}

/**
 * /validate-reward (staff at the counter) and /admin/validate-reward (owner): scan the shopper's QR code or type
 * its 6 characters, check what it is, then Valider or Refuser. Works for the current shop.
 */
export default function ValidateRewardPage() {
  const current = useCurrentShop();
  const inputRef = useRef<HTMLInputElement>(null);
  const [found, setFound] = useState<CounterRedemption | null>(null);
  // A code that is not a redemption may be a lot won in a contest (components/contests/lot-hand-over.tsx).
  const [lot, setLot] = useState<CounterLot | null>(null);
  const [outcome, setOutcome] = useState<"validated" | "refused" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shopId = current.shopId;

  const lookup = useCallback(
    async (code: string) => {
      if (!shopId) return;
      setBusy(true);
      setError(null);
      try {
        setFound(await lookupRedemption(shopId, code));
        setOutcome(null);
      } catch (e) {
        const asLot =
          e instanceof ApiError && e.status === 404 ? await lookupLot(shopId, code).catch(() => null) : null;
        if (asLot) return setLot(asLot);
        setError(e instanceof ApiError ? e.message : "Une erreur inattendue est survenue. Réessayez.");
      } finally {
        setBusy(false);
      }
    },
    [shopId],
  );

  const next = () => {
    setLot(null);
    setFound(null);
    setOutcome(null);
    setError(null);
    window.setTimeout(() => inputRef.current?.focus(), 0);
  };

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-5 px-5 pb-10 pt-5">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Valider une récompense</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          Scannez le QR code affiché sur le téléphone du client, ou tapez son code. Vérifiez que l'écran bouge : une
          capture d'écran ne compte pas.
        </p>
      </div>
      {current.shops.length > 1 ? (
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Boutique
          <select
            value={shopId ?? ""}
            onChange={(e) => {
              current.select(e.target.value);
              next();
            }}
            className="min-h-12 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          >
            {current.shops.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      ) : current.shop ? (
        <p className="-mt-2 text-sm font-semibold text-brand-800 dark:text-brand-200">{current.shop.name}</p>
      ) : null}

      {current.isLoading ? (
        <p aria-busy="true">Chargement…</p>
      ) : !shopId ? (
        <Notice tone="error">
          Aucune boutique n'est liée à votre compte : cette page sert au personnel d'une boutique.
        </Notice>
      ) : lot ? (
        <LotHandOver shopId={shopId} lot={lot} onNext={next} />
      ) : found && outcome && found.status !== "pending" ? (
        <Outcome redemption={found} outcome={outcome} onNext={next} />
      ) : found ? (
        <>
          <RedemptionPanel
            shopId={shopId}
            redemption={found}
            onChange={(r, o) => {
              setFound(r);
              setOutcome(r.status === o ? o : null);
            }}
            onNext={next}
          />
          {found.status === "pending" ? (
            <Button variant="ghost" onClick={next}>
              Ce n'est pas le bon code
            </Button>
          ) : null}
        </>
      ) : (
        <>
          <section
            aria-label="Scanner"
            className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
          >
            <CameraScan onCode={(code) => void lookup(code)} />
          </section>
          <section
            aria-label="Saisir le code"
            className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
          >
            {error ? (
              <div className="mb-3">
                <Notice tone="error">{error}</Notice>
              </div>
            ) : null}
            <CodeForm onCode={(code) => void lookup(code)} busy={busy} inputRef={inputRef} />
          </section>
        </>
      )}
    </div>
  );
}

import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { formatCoordinate } from "../../../../domain/format.ts";

type GeoStatus =
  | { kind: "idle" }
  | { kind: "locating" }
  | { kind: "done"; accuracy: number }
  | { kind: "error"; message: string };

const GEO_ERRORS: Record<number, string> = {
  1: "Vous avez refusé l'accès à votre position. Autorisez-le dans les réglages du navigateur, ou saisissez les coordonnées.",
  2: "Votre position est introuvable pour le moment. Réessayez près d'une fenêtre, ou saisissez les coordonnées.",
  3: "La recherche de votre position a pris trop de temps. Réessayez, ou saisissez les coordonnées.",
};

/**
 * The shop's pin without map tiles (none can be loaded here): the phone's own
 * position, taken from the shop, or coordinates typed in. Inputs named `lat`
 * and `lng`, read by the form with readCoordinate.
 */
export function PositionPicker({
  initial,
  errors,
}: {
  initial?: { lat: number | null; lng: number | null };
  errors: { lat?: string; lng?: string };
}) {
  const [lat, setLat] = useState(initial?.lat == null ? "" : String(initial.lat));
  const [lng, setLng] = useState(initial?.lng == null ? "" : String(initial.lng));
  const [status, setStatus] = useState<GeoStatus>({ kind: "idle" });
  const hasPin = lat.trim() !== "" && lng.trim() !== "";
  const latValue = Number(lat.replace(",", "."));
  const lngValue = Number(lng.replace(",", "."));
  const isValid = hasPin && Number.isFinite(latValue) && Number.isFinite(lngValue);

  const locate = () => {
    if (!("geolocation" in navigator)) {
      setStatus({
        kind: "error",
        message: "Ce navigateur ne sait pas donner votre position : saisissez les coordonnées.",
      });
      return;
    }
    setStatus({ kind: "locating" });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLat(position.coords.latitude.toFixed(6));
        setLng(position.coords.longitude.toFixed(6));
        setStatus({ kind: "done", accuracy: Math.round(position.coords.accuracy) });
      },
      (error) => setStatus({ kind: "error", message: GEO_ERRORS[error.code] ?? GEO_ERRORS[2]! }),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  };

  return (
    <fieldset className="flex flex-col gap-4 rounded-2xl border border-stone-200 bg-stone-50 p-4 dark:border-stone-800 dark:bg-stone-900/60">
      <legend className="px-1 text-base font-semibold">Position sur la carte (facultatif)</legend>
      <p className="-mt-2 text-sm text-stone-600 dark:text-stone-400">
        Avec un repère, votre boutique apparaît dans « Boutiques à proximité ». Le plus simple : depuis votre boutique,
        touchez le bouton ci-dessous.
      </p>
      <Button variant="secondary" onClick={locate} isLoading={status.kind === "locating"}>
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          className="size-5"
          aria-hidden="true"
        >
          <path d="M12 21s-7-6.1-7-11.5a7 7 0 0 1 14 0C19 14.9 12 21 12 21z" />
          <circle cx="12" cy="9.5" r="2.5" />
        </svg>
        Utiliser ma position actuelle
      </Button>
      <div aria-live="polite" className="text-sm">
        {status.kind === "done" ? (
          <p className="text-emerald-800 dark:text-emerald-300">
            Position trouvée (précision : environ {formatCoordinate(status.accuracy)} m).
          </p>
        ) : null}
        {status.kind === "error" ? (
          <p className="font-medium text-red-700 dark:text-red-400">{status.message}</p>
        ) : null}
      </div>
      <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
        {(
          [
            ["lat", "Latitude", "45,764043", lat, setLat],
            ["lng", "Longitude", "4,835659", lng, setLng],
          ] as const
        ).map(([name, label, placeholder, value, onValue]) => (
          <Field
            key={name}
            label={label}
            name={name}
            inputMode="decimal"
            placeholder={placeholder}
            value={value}
            onValue={onValue}
            error={errors[name]}
          />
        ))}
      </div>
      {isValid ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          <span className="text-stone-700 dark:text-stone-300">
            Repère : {formatCoordinate(latValue)}, {formatCoordinate(lngValue)}
          </span>
          <a
            href={`https://www.openstreetmap.org/?mlat=${latValue}&mlon=${lngValue}#map=18/${latValue}/${lngValue}`}
            target="_blank"
            rel="noreferrer"
            className="font-semibold text-brand-800 underline dark:text-brand-200"
          >
            Vérifier sur une carte<span className="sr-only"> (nouvel onglet)</span>
          </a>
          <button
            type="button"
            onClick={() => {
              setLat("");
              setLng("");
              setStatus({ kind: "idle" });
            }}
            className="min-h-10 font-semibold text-red-700 underline dark:text-red-400"
          >
            Enlever le repère
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { nearbyShopsQueryOptions } from "../api/search-shops.ts";
import { ShopRows, ShopRowsSkeleton } from "../components/shop-row.tsx";

type Position = { lat: number; lng: number };
type Locating =
  | { kind: "ask" }
  | { kind: "locating" }
  | { kind: "located"; position: Position }
  | { kind: "failed"; message: string };

/** Three decimals (~100 m): precise enough to sort shops, without sending where exactly the person stands. */
const round = (value: number) => Math.round(value * 1000) / 1000;

function locationProblem(error: GeolocationPositionError): string {
  switch (error.code) {
    case error.PERMISSION_DENIED:
      return "Vous n'avez pas autorisé la localisation : les boutiques sont classées par nom. Pour changer d'avis, autorisez la position pour ce site dans les réglages du navigateur.";
    case error.TIMEOUT:
      return "Votre position met trop de temps à arriver. Réessayez à l'extérieur ou près d'une fenêtre ; en attendant, les boutiques sont classées par nom.";
    default:
      return "Votre position n'est pas disponible pour le moment (GPS ou réseau). En attendant, les boutiques sont classées par nom.";
  }
}

/**
 * /boutique-a-proximite: with the shopper's consent, shops within 30 km sorted by distance; without it (or
 * when location fails), the same list sorted by name, with a note saying so. The page explains why before the
 * browser asks.
 */
export default function NearbyPage() {
  const [locating, setLocating] = useState<Locating>({ kind: "ask" });
  const position = locating.kind === "located" ? locating.position : undefined;

  const locate = useCallback(() => {
    if (!("geolocation" in navigator)) {
      setLocating({ kind: "failed", message: "Ce navigateur ne donne pas accès à votre position : les boutiques sont classées par nom." });
      return;
    }
    setLocating({ kind: "locating" });
    navigator.geolocation.getCurrentPosition(
      (p) => setLocating({ kind: "located", position: { lat: round(p.coords.latitude), lng: round(p.coords.longitude) } }),
      (error) => setLocating({ kind: "failed", message: locationProblem(error) }),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 5 * 60_000 },
    );
  }, []);

  // Already allowed on this site: no need to explain again, locate at once.
  useEffect(() => {
    let cancelled = false;
    navigator.permissions
      ?.query({ name: "geolocation" })
      .then((status) => {
        if (!cancelled && status.state === "granted") locate();
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [locate]);

  const shops = useInfiniteQuery({ ...nearbyShopsQueryOptions(position ?? {}), placeholderData: keepPreviousData });
  const list = shops.data?.pages.flatMap((p) => p.shops) ?? [];
  const sortedBy = shops.data?.pages[0]?.sortedBy;

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-5 pb-8 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Boutiques à proximité</h1>
        <p className="mt-1 text-stone-700 dark:text-stone-300">Les commerces Fidèle autour de vous, du plus proche au plus éloigné.</p>
      </div>

      {locating.kind === "ask" || locating.kind === "locating" ? (
        <div className="flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
          <div className="flex items-center gap-3">
            <GlyphBadge name="pin" />
            <h2 className="text-lg font-semibold">Trier par distance ?</h2>
          </div>
          <p className="text-sm text-stone-700 dark:text-stone-300">
            Pour vous montrer les boutiques les plus proches, Fidèle a besoin de votre position. Elle sert seulement à cette recherche,
            arrondie à une centaine de mètres, et n'est pas enregistrée. Votre navigateur va vous demander l'autorisation.
          </p>
          <Button onClick={locate} isLoading={locating.kind === "locating"} full>
            {locating.kind === "locating" ? null : <Glyph name="pin" className="size-5" />}
            {locating.kind === "locating" ? "Localisation…" : "Utiliser ma position"}
          </Button>
        </div>
      ) : null}
      {locating.kind === "failed" ? <Notice tone="info">{locating.message}</Notice> : null}
      {locating.kind === "located" && sortedBy === "distance" ? (
        <p className="flex items-center gap-2 text-sm font-medium text-brand-800 dark:text-brand-200" role="status">
          <Glyph name="pin" className="size-4" />
          Classées par distance, dans un rayon de 30 km.
        </p>
      ) : null}
      {locating.kind === "ask" && sortedBy === "name" ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">Sans votre position, les boutiques sont classées par nom.</p>
      ) : null}

      {shops.isError ? <Notice tone="error">{shops.error.message}</Notice> : null}
      {shops.isPending ? (
        <ShopRowsSkeleton />
      ) : list.length === 0 ? (
        <div className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800" role="status">
          <p className="font-semibold">{position ? "Aucune boutique Fidèle à moins de 30 km pour le moment." : "Aucune boutique pour le moment."}</p>
          <Link to="/boutiques" className="mt-2 inline-flex min-h-11 items-center font-semibold text-brand-800 underline dark:text-brand-200">
            Voir toutes les boutiques
          </Link>
        </div>
      ) : (
        <>
          <ShopRows shops={list} pages={shops} />
        </>
      )}
    </div>
  );
}

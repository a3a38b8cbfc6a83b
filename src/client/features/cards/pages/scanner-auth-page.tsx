import { useSearchParams } from "react-router";
import { parseScanCode } from "../../../../domain/loyalty/scan-code.ts";
import { safeRedirect } from "../../../../domain/schemas/accounts.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { APP_DESIGN, readableOn } from "../../../components/loyalty/loyalty-card.tsx";
import { SignInGate } from "../../../components/sign-in-gate.tsx";
import { useShopByScan } from "../api/get-shop-by-scan.ts";

/**
 * /scanner-auth?redirect=/boutique/…: a shop code opened signed out. Sign in or create an account, then the
 * login or sign-up flow brings the person back to the code's page, which credits the visit.
 */
export default function ScannerAuthPage() {
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get("redirect"), "/scanner");
  const code = parseScanCode(redirect);
  const shop = useShopByScan(code?.scanUid ?? null);
  const design = shop.data?.design ?? APP_DESIGN;
  return (
    <SignInGate
      redirect={redirect}
      signUpLook={{
        className: "shadow-md",
        style: { background: design.background, color: readableOn(design.background) },
      }}
      top={
        <div className="flex flex-col items-center gap-4 text-center">
          {shop.data?.logoUrl ? (
            <img src={shop.data.logoUrl} alt="" className="size-20 rounded-3xl object-cover shadow-md" />
          ) : (
            <span
              className="flex size-20 items-center justify-center rounded-3xl shadow-md"
              style={{ background: design.background, color: design.foreground }}
              aria-hidden="true"
            >
              <Glyph name="qr" className="size-10" />
            </span>
          )}
          <h1 className="text-2xl font-bold tracking-tight">
            {shop.data ? `Votre passage chez ${shop.data.name}` : "Connectez-vous pour valider votre passage"}
          </h1>
          <p className="text-stone-700 dark:text-stone-300">
            Pour créditer ce passage sur votre carte de fidélité, connectez-vous ou créez votre compte gratuit. Vous
            reviendrez ici aussitôt après, et votre passage sera compté une seule fois.
          </p>
        </div>
      }
    >
      <ul className="flex flex-col gap-3 rounded-2xl bg-white p-5 text-sm text-stone-700 shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-300 dark:ring-stone-800">
        <li className="flex gap-3">
          <Glyph name="card" className="size-5 shrink-0 text-brand-700 dark:text-brand-200" />
          Toutes vos cartes de fidélité au même endroit, même sans réseau.
        </li>
        <li className="flex gap-3">
          <Glyph name="sparkle" className="size-5 shrink-0 text-brand-700 dark:text-brand-200" />
          Un compte gratuit, sans publicité : créé en moins d'une minute.
        </li>
      </ul>
    </SignInGate>
  );
}

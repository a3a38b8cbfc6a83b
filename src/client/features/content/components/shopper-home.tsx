import { Link } from "react-router";
import { CardsGlance } from "../../../components/cards-glance.tsx";
import { WonLotsGlance } from "../../../components/contests/won-lots.tsx";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { Me } from "../../../lib/me.ts";
import { LatestArticles } from "./latest-articles.tsx";
import { SiteFooter } from "./site-footer.tsx";

/** The signed-in shopper's home (its own chunk: a visitor never downloads it). */
function Tile({
  to,
  title,
  text,
  tone = "plain",
}: {
  to: string;
  title: string;
  text: string;
  tone?: "plain" | "brand";
}) {
  return (
    <Link
      to={to}
      className={`flex min-h-28 flex-col justify-between rounded-2xl p-4 shadow-sm ${
        tone === "brand"
          ? "bg-brand-700 text-white hover:bg-brand-800"
          : "bg-white ring-1 ring-stone-200 hover:ring-brand-200 dark:bg-stone-900 dark:ring-stone-800"
      }`}
    >
      <span className="font-semibold">{title}</span>
      <span className={`text-sm ${tone === "brand" ? "text-brand-50" : "text-stone-600 dark:text-stone-400"}`}>
        {text}
      </span>
    </Link>
  );
}

export default function ShopperHome({ me }: { me: Me }) {
  const ownShop = me.memberships.find((m) => m.role === "owner");
  const staffShop = me.memberships.find((m) => m.role !== "owner");
  return (
    <>
      <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-4 pt-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Bonjour {me.profile.firstName ?? ""}</h1>
          <p className="mt-1 text-stone-700 dark:text-stone-300">Prêt pour votre prochain passage ?</p>
        </div>

        {!me.profile.isComplete ? (
          <Link to="/create-profil" className="rounded-2xl bg-accent-400/20 p-4 ring-1 ring-accent-400/50">
            <span className="block font-semibold">Complétez votre profil</span>
            <span className="block text-sm text-stone-700 dark:text-stone-300">
              Votre prénom et votre nom permettent aux boutiques de vous reconnaître.
            </span>
          </Link>
        ) : null}

        <WonLotsGlance />

        <CardsGlance />

        <Section
          title="Boutiques près de chez vous"
          lead="Les commerces de votre quartier qui proposent une carte Fidèle."
        >
          <div className="grid grid-cols-2 gap-3">
            <ButtonLink to="/boutique-a-proximite" variant="secondary" full>
              À proximité
            </ButtonLink>
            <ButtonLink to="/boutiques" variant="secondary" full>
              Toutes
            </ButtonLink>
          </div>
        </Section>

        <div className="grid grid-cols-2 gap-3">
          {ownShop ? (
            <Tile to="/admin" title="Espace commerçant" text={ownShop.shopName} tone="brand" />
          ) : staffShop ? (
            <Tile to="/manager" title="Comptoir" text={staffShop.shopName} tone="brand" />
          ) : null}
          <Tile to="/dashboard" title="Mon activité" text="Compte, profil, notifications" />
          {!ownShop && !staffShop ? <Tile to="/offre" title="Vous êtes commerçant ?" text="Créez votre carte" /> : null}
        </div>

        <LatestArticles />
      </div>
      <SiteFooter />
    </>
  );
}


import { multipliedFr, rewardsGlanceFr } from "../../../../domain/phrases.ts";
import type { ReactNode } from "react";
import { Link, useLocation, useParams } from "react-router";
import { Glyph, type GlyphName } from "../../../components/loyalty/glyph.tsx";
import { LoyaltyCard, readableOn } from "../../../components/loyalty/loyalty-card.tsx";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { useMe } from "../../../lib/me.ts";
import { type ShopPageData, shopLoader, useShop } from "../api/get-shop.ts";
import { OpenBadge } from "../components/open-badge.tsx";
import { ShopReviews } from "../components/shop-reviews.tsx";
import { ShopRewards } from "../components/shop-rewards.tsx";
import { dateRangeFr, dayHoursFr, periodWhenFr, rulesListFr, telHref } from "../components/shop-text.ts";
import { Stars } from "../components/stars.tsx";
import { capitalize, formatMoment, formatRating } from "../../../../domain/format.ts";

export const loader = shopLoader;

/** Every day 00:00–24:00: the API's "ferme lundi à 0 h 00" would say a closing that never comes. */
const isAlwaysOpen = (weekly: ShopPageData["hours"]["weekly"]) =>
  weekly.every((d) => d.ranges.length === 1 && d.ranges[0]?.open === "00:00" && d.ranges[0]?.close === "24:00");

function ContactLink({ href, glyph, children, external = false }: { href: string; glyph: GlyphName; children: ReactNode; external?: boolean }) {
  return (
    <a
      href={href}
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      className="flex min-h-12 items-center gap-3 rounded-xl px-1 font-medium text-stone-900 hover:bg-stone-50 dark:text-stone-100 dark:hover:bg-stone-800"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
        <Glyph name={glyph} className="size-5" />
      </span>
      <span className="min-w-0 flex-1 break-words">{children}</span>
      {external ? <Glyph name="external" className="size-4 shrink-0 text-stone-500" /> : null}
    </a>
  );
}

function Hero({ data }: { data: ShopPageData }) {
  const { shop, rating, hours } = data;
  const { design } = shop;
  return (
    <div>
      <div
        className="relative h-44 w-full overflow-hidden bg-cover bg-center"
        style={
          shop.coverUrl
            ? { backgroundImage: `url("${shop.coverUrl}")` }
            : { background: `linear-gradient(135deg, ${design.background} 0%, ${design.background} 55%, ${design.accent} 140%)`, color: design.foreground }
        }
      >
        {shop.coverUrl ? null : (
          <span className="absolute -right-6 -top-4 opacity-15" aria-hidden="true">
            <StampIcon name={design.stampIcon} className="size-52" />
          </span>
        )}
      </div>
      <div className="mx-auto max-w-md px-5">
        <div className="relative -mt-10 flex items-end gap-4">
          {shop.logoUrl ? (
            <img src={shop.logoUrl} alt={`Logo de ${shop.name}`} className="size-20 shrink-0 rounded-2xl bg-white object-cover shadow-md ring-4 ring-stone-50 dark:ring-stone-950" />
          ) : (
            <span
              className="flex size-20 shrink-0 items-center justify-center rounded-2xl text-3xl font-black shadow-md ring-4 ring-stone-50 dark:ring-stone-950"
              style={{ background: design.accent, color: readableOn(design.accent) }}
              aria-hidden="true"
            >
              {shop.name.trim().charAt(0).toUpperCase()}
            </span>
          )}
        </div>
        <h1 className="mt-3 text-2xl font-bold leading-tight tracking-tight">{shop.name}</h1>
        <p className="text-stone-700 dark:text-stone-300">
          {shop.categoryLabel} · {shop.city}
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1">
          <OpenBadge open={isAlwaysOpen(hours.weekly) && hours.isOpen ? { ...hours, label: "Ouvert maintenant · 24 h/24" } : hours} size="md" />
          {rating.count > 0 && rating.average !== null ? (
            <a href="#avis" className="inline-flex items-center gap-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">
              <Stars value={rating.average} />
              {formatRating(rating.average)} ({rating.count} avis)
            </a>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/**
 * A shop with a catalogue of rewards: the card names the next reward not yet reachable (and how many are ready),
 * not « Plus que 2 tampons avant votre récompense » beside two ready ones (issue 25 row 12). Without one, the card's
 * own sentence (undefined).
 */
function cardRewardsHint(data: ShopPageData): string | undefined {
  if (data.rewards.length === 0) return undefined;
  const next = data.rewards.filter((r) => !r.reachable && r.missing > 0).sort((a, b) => a.missing - b.missing)[0];
  const glance = {
    reachable: data.rewards.filter((r) => r.reachable).length,
    next: next ? { title: next.title, missing: next.missing } : null,
  };
  return rewardsGlanceFr(data.rules.mode, glance) ?? undefined;
}

function MyCard({ data, isSignedIn }: { data: ShopPageData; isSignedIn: boolean }) {
  const { pathname } = useLocation();
  const { shop, myCard } = data;
  if (!isSignedIn) {
    return (
      <div className="flex flex-col gap-3">
        <LoyaltyCard shopName={shop.name} subtitle="Carte de fidélité" design={shop.design} logoUrl={shop.logoUrl} progress={null} />
        <ButtonLink to={`/login?redirect=${encodeURIComponent(pathname)}`} variant="secondary" full>
          Se connecter pour voir ma carte
        </ButtonLink>
      </div>
    );
  }
  return (
    <LoyaltyCard
      shopName={shop.name}
      subtitle="Ma carte de fidélité"
      design={shop.design}
      logoUrl={shop.logoUrl}
      progress={myCard?.progress ?? null}
      hint={myCard ? cardRewardsHint(data) : undefined}
      footer={
        myCard ? (
          <p>
            {myCard.visits} passage{myCard.visits > 1 ? "s" : ""}
            {myCard.lastScanAt ? ` · dernier ${formatMoment(myCard.lastScanAt)}` : ""}
            {!myCard.canScanNow && myCard.nextScanAt ? ` · prochain crédit ${formatMoment(myCard.nextScanAt)}` : ""}
          </p>
        ) : undefined
      }
    />
  );
}

function Hours({ hours }: { hours: ShopPageData["hours"] }) {
  if (!hours.hasHours) return <p className="text-stone-700 dark:text-stone-300">La boutique n'a pas encore indiqué ses horaires.</p>;
  return (
    <>
      {hours.closedToday ? (
        <div className="mb-3">
          <Notice tone="info">
            Fermeture exceptionnelle aujourd'hui{hours.closedToday.reason ? ` : ${hours.closedToday.reason}` : ""}.
          </Notice>
        </div>
      ) : null}
      <table className="w-full text-sm">
        <caption className="sr-only">Horaires de la semaine</caption>
        <tbody>
          {hours.weekly.map((day) => (
            <tr key={day.weekday} className={day.isToday ? "font-bold text-stone-950 dark:text-white" : "text-stone-700 dark:text-stone-300"}>
              <th scope="row" className="py-1.5 pr-3 text-left font-inherit">
                {capitalize(day.dayLabel)}
                {day.isToday ? <span className="sr-only"> (aujourd'hui)</span> : null}
              </th>
              <td className="py-1.5 text-right tabular-nums">{dayHoursFr(day.ranges)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hours.closures.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-sm font-semibold">Fermetures exceptionnelles</h3>
          <ul className="mt-1 text-sm text-stone-700 dark:text-stone-300">
            {hours.closures.map((c) => (
              <li key={`${c.startDate}-${c.endDate}`}>
                {capitalize(dateRangeFr(c.startDate, c.endDate))}
                {c.reason ? ` · ${c.reason}` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

const LINK_LABELS = { website: "Site web", instagram: "Instagram", facebook: "Facebook", tiktok: "TikTok" } as const;

/** /shop/{slug}: a shop's public page, with my card when signed in. An unknown slug is a 404 (the loader). */
export default function ShopPage() {
  const { slug = "" } = useParams();
  const { data } = useShop(slug);
  const { data: me } = useMe();
  const isSignedIn = Boolean(me);
  const { shop, doublePoints, rules } = data;
  const links = (Object.keys(LINK_LABELS) as (keyof typeof LINK_LABELS)[]).filter((k) => shop.links?.[k]);

  return (
    <div className="pb-8">
      <Hero data={data} />
      <div className="mx-auto mt-5 flex max-w-md flex-col gap-5 px-5">
        {shop.status === "suspended" ? (
          <Notice tone="error">Cette boutique est momentanément suspendue sur Fidèle : aucun passage ne peut être crédité pour l'instant.</Notice>
        ) : null}
        {doublePoints.activeNow ? (
          <div className="flex items-center gap-3 rounded-2xl bg-accent-400 p-4 text-stone-950 shadow-sm" role="status">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white/70 text-lg font-black">×{doublePoints.activeNow.multiplier}</span>
            <div>
              <p className="font-bold">{multipliedFr(data.rules.mode, doublePoints.activeNow.multiplier)} en ce moment !</p>
              <p className="text-sm">{doublePoints.activeNow.label} : chaque passage compte {doublePoints.activeNow.multiplier} fois.</p>
            </div>
          </div>
        ) : null}

        <MyCard data={data} isSignedIn={isSignedIn} />

        <ShopRewards data={data} isSignedIn={isSignedIn} />

        {shop.description ? <p className="whitespace-pre-line text-stone-800 dark:text-stone-200">{shop.description}</p> : null}

        <Section title="La carte de fidélité">
          <ul className="flex flex-col gap-2">
            {rulesListFr(rules).map((rule) => (
              <li key={rule} className="flex gap-2 text-stone-800 dark:text-stone-200">
                <Glyph name="check" className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-200" />
                {rule}
              </li>
            ))}
          </ul>
          {doublePoints.periods.length > 0 ? (
            <div className="mt-4 rounded-xl bg-accent-400/15 p-3">
              <h3 className="text-sm font-semibold">Points multipliés</h3>
              <ul className="mt-1 text-sm text-stone-800 dark:text-stone-200">
                {doublePoints.periods.map((p) => (
                  <li key={p.id}>
                    <strong>×{p.multiplier}</strong> {p.label} : {periodWhenFr(p)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </Section>

        <Section title="Horaires">
          <Hours hours={data.hours} />
        </Section>

        <Section title="Nous trouver">
          <div className="flex flex-col gap-1">
            <ContactLink href={shop.mapUrl} glyph="pin" external>
              {shop.address}, {shop.postalCode} {shop.city}
              <span className="block text-sm font-normal text-brand-800 dark:text-brand-200">Ouvrir dans une application de cartes</span>
            </ContactLink>
            <ContactLink href={telHref(shop.phone)} glyph="phone">
              {shop.phone}
            </ContactLink>
            {links.map((key) => (
              <ContactLink key={key} href={shop.links[key] as string} glyph="globe" external>
                {LINK_LABELS[key]}
              </ContactLink>
            ))}
          </div>
        </Section>

        <ShopReviews data={data} isSignedIn={isSignedIn} />

        <p className="text-center text-sm text-stone-600 dark:text-stone-400">
          <Link to="/boutiques" className="font-semibold text-brand-800 underline dark:text-brand-200">
            Voir d'autres boutiques
          </Link>
        </p>
      </div>
    </div>
  );
}

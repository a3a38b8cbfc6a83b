import { type CSSProperties, type ReactNode, useEffect, useRef } from "react";
import { formatAmount, formatNumber, unitWord } from "../../../domain/format.ts";
import type { CardProgress } from "../../../domain/loyalty/ledger.ts";
import { stampsLeftFr, stampsOfGoalFr } from "../../../domain/phrases.ts";
import type { CardDesign } from "../../../domain/schemas/shops.ts";
import { StampIcon } from "./stamp-icon.tsx";


/**
 * Fidèle's own colours (brand-700, white, accent-500), shown while a shop's design is still loading. Kept here
 * rather than importing DEFAULT_CARD_DESIGN: that module brings zod (~24 kB gzip) to pages that need no form.
 */
export const APP_DESIGN: CardDesign = { background: "#0f766e", foreground: "#ffffff", accent: "#f59e0b", stampIcon: "star" };

/**
 * A just-earned stamp pops in (Web Animations API: no stylesheet to share). Nothing moves for people who asked
 * their system for reduced motion.
 */
function Pop({ active, delay = 0, className, style, children }: { active: boolean; delay?: number; className: string; style: CSSProperties; children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!active || !el || typeof el.animate !== "function") return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    el.animate(
      [
        { transform: "scale(0.2) rotate(-25deg)", opacity: 0 },
        { transform: "scale(1.25) rotate(8deg)", opacity: 1, offset: 0.6 },
        { transform: "scale(1) rotate(0)", opacity: 1 },
      ],
      { duration: 650, delay, easing: "cubic-bezier(.2,.9,.3,1.2)", fill: "backwards" },
    );
  }, [active, delay]);
  return (
    <span ref={ref} className={className} style={style}>
      {children}
    </span>
  );
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function readableOn(hex: string): "#000000" | "#ffffff" {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return luminance > 0.179 ? "#000000" : "#ffffff";
}

/** "7 tampons sur 10" / "120 points": what a screen reader hears for a card's progress. */
export function progressLabelFr(progress: CardProgress): string {
  if (progress.mode === "points") return formatAmount("points", progress.points);
  return stampsOfGoalFr(progress.stamps, progress.goal);
}

/** "Plus que 3 tampons avant votre récompense", "Plus qu'un tampon …", "Carte complète …" (src/domain/phrases.ts). */
function progressHintFr(progress: CardProgress): string {
  if (progress.mode === "points") return "Cumulez des points à chaque passage.";
  return stampsLeftFr(progress.goal - progress.stamps);
}

function Logo({ name, logoUrl, design }: { name: string; logoUrl: string | null; design: CardDesign }) {
  if (logoUrl) {
    return <img src={logoUrl} alt="" className="size-12 shrink-0 rounded-2xl bg-white object-cover shadow-sm ring-2 ring-white/70" />;
  }
  return (
    <span
      className="flex size-12 shrink-0 items-center justify-center rounded-2xl text-xl font-black shadow-sm"
      style={{ background: design.accent, color: readableOn(design.accent) }}
      aria-hidden="true"
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

function StampGrid({ progress, design, fresh }: { progress: Extract<CardProgress, { mode: "stamps" }>; design: CardDesign; fresh: number }) {
  const { goal, stamps } = progress;
  if (goal > 24) {
    return (
      <div className="mt-4 h-3 overflow-hidden rounded-full" style={{ background: `${design.foreground}33` }} aria-hidden="true">
        <div className="h-full rounded-full" style={{ width: `${progress.percent}%`, background: design.accent }} />
      </div>
    );
  }
  const columns = goal <= 10 ? 5 : 6;
  return (
    <div className="mt-4 grid gap-2" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }} aria-hidden="true">
      {Array.from({ length: goal }, (_, i) => {
        const isFilled = i < stamps;
        const isFresh = isFilled && i >= stamps - fresh;
        return (
          <Pop
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of stamps.
            key={i}
            active={isFresh}
            delay={300}
            className="flex aspect-square items-center justify-center rounded-full"
            style={
              isFilled
                ? { background: design.accent, color: readableOn(design.accent) }
                : { border: `2px dashed ${design.foreground}80`, color: design.foreground }
            }
          >
            {isFilled ? <StampIcon name={design.stampIcon} className="size-[55%]" /> : <span className="text-xs font-semibold">{i + 1}</span>}
          </Pop>
        );
      })}
    </div>
  );
}

/**
 * A shop's loyalty card as the shopper sees it: the shop's colours and stamp icon,
 * a grid of stamps (or the points), and what is left before the reward. `fresh`
 * stamps (just earned) pop in.
 */
export function LoyaltyCard({
  shopName,
  subtitle,
  design,
  logoUrl,
  progress,
  fresh = 0,
  footer,
  hint,
  headingLevel = 2,
}: {
  shopName: string;
  subtitle?: string | null;
  design: CardDesign;
  logoUrl: string | null;
  /** null: no card yet (the shop's card shown empty). */
  progress: CardProgress | null;
  fresh?: number;
  footer?: ReactNode;
  /**
   * What the card says under the stamps. By default, what is left before a full card; a card whose shop has a
   * catalogue of rewards passes its own (or null), so « Plus que 7 tampons » never stands beside « 1 récompense
   * disponible ».
   */
  hint?: string | null;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const shownHint = progress === null ? null : hint === undefined ? progressHintFr(progress) : hint;
  return (
    <div
      className="relative overflow-hidden rounded-3xl p-5 shadow-lg ring-1 ring-black/5"
      style={{ background: design.background, color: design.foreground }}
    >
      <span
        className="pointer-events-none absolute -bottom-16 -right-12 size-44 rounded-full opacity-20"
        style={{ background: design.accent }}
        aria-hidden="true"
      />
      <div className="relative flex items-center gap-3">
        <Logo name={shopName} logoUrl={logoUrl} design={design} />
        <div className="min-w-0">
          <Heading className="line-clamp-2 text-lg font-bold leading-tight">{shopName}</Heading>
          {subtitle ? <p className="truncate text-sm font-medium">{subtitle}</p> : null}
        </div>
      </div>
      <div className="relative">
        {progress === null ? (
          <p className="mt-4 font-semibold">Pas encore de carte ici : elle s'ouvre à votre premier passage.</p>
        ) : progress.mode === "stamps" ? (
          <>
            <p className="mt-4 flex items-baseline gap-2">
              <span className="text-3xl font-black tabular-nums">
                {progress.stamps}
                <span className="text-xl font-bold"> / {progress.goal}</span>
              </span>
              <span className="font-semibold">tampons</span>
            </p>
            <StampGrid progress={progress} design={design} fresh={fresh} />
            {shownHint ? <p className="mt-3 text-sm font-semibold">{shownHint}</p> : null}
          </>
        ) : (
          <>
            <p className="mt-4 flex items-baseline gap-2">
              <Pop active={fresh > 0} delay={300} className="inline-block text-4xl font-black tabular-nums" style={{}}>
                {formatNumber(progress.points)}
              </Pop>
              <span className="font-semibold">{unitWord("points", progress.points)}</span>
            </p>
            {shownHint ? <p className="mt-2 text-sm font-semibold">{shownHint}</p> : null}
          </>
        )}
        {footer ? <div className="mt-3 text-sm">{footer}</div> : null}
      </div>
    </div>
  );
}

import { useSyncExternalStore } from "react";

/**
 * Colour mode (SPEC §4): system, light or dark, kept in local storage and applied as the `dark` class on <html>
 * (Tailwind's dark variant, src/client/styles.css). public/colour-mode.js applies the saved choice before the first
 * paint; this module keeps it applied afterwards, follows the system when asked to, and lets a route force a mode
 * (RouteMeta.colorMode in src/domain/routes.ts) without touching the saved choice.
 */
type ColourMode = "system" | "light" | "dark";

const COLOUR_MODE_KEY = "fidele:colour-mode";
const MODES: readonly ColourMode[] = ["system", "light", "dark"];

const listeners = new Set<() => void>();
let forcedMode: "light" | "dark" | undefined;

function readMode(): ColourMode {
  try {
    const saved = localStorage.getItem(COLOUR_MODE_KEY);
    return MODES.includes(saved as ColourMode) ? (saved as ColourMode) : "system";
  } catch {
    return "system";
  }
}

let mode: ColourMode = typeof window === "undefined" ? "system" : readMode();

const systemQuery = () => window.matchMedia("(prefers-color-scheme: dark)");

export function isDarkFor(mode: ColourMode, forced: "light" | "dark" | undefined, systemIsDark: boolean): boolean {
  const effective = forced ?? mode;
  return effective === "dark" || (effective === "system" && systemIsDark);
}

function apply() {
  const isDark = isDarkFor(mode, forcedMode, systemQuery().matches);
  const root = document.documentElement;
  root.classList.toggle("dark", isDark);
  root.style.colorScheme = isDark ? "dark" : "light";
}

function emit() {
  apply();
  for (const listener of listeners) listener();
}

function getColourMode(): ColourMode {
  return mode;
}

function setColourMode(next: ColourMode) {
  mode = next;
  try {
    localStorage.setItem(COLOUR_MODE_KEY, next);
  } catch {
    // Storage blocked: the choice lasts for this visit only.
  }
  emit();
}

/** A route's forced mode (undefined: the person's choice applies). */
export function setForcedColourMode(next: "light" | "dark" | undefined) {
  if (next === forcedMode) return;
  forcedMode = next;
  apply();
}

let isStarted = false;
/** Applies the mode now and keeps it in step with the system setting and with other tabs. */
export function startColourMode(initialForced?: "light" | "dark") {
  forcedMode = initialForced;
  apply();
  if (isStarted) return;
  isStarted = true;
  systemQuery().addEventListener("change", apply);
  window.addEventListener("storage", (event) => {
    if (event.key !== COLOUR_MODE_KEY && event.key !== null) return;
    mode = readMode();
    emit();
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function useColourMode(): ColourMode {
  return useSyncExternalStore(subscribe, getColourMode, () => "system" as const);
}

const LABELS: Record<ColourMode, string> = { system: "Système", light: "Clair", dark: "Sombre" };

function ModeIcon({ mode: shown, className = "size-5" }: { mode: ColourMode; className?: string }) {
  const common = {
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    strokeWidth: 2,
    strokeLinecap: "round" as const,
    strokeLinejoin: "round" as const,
    className,
  };
  if (shown === "light") {
    return (
      <svg {...common} aria-hidden="true">
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    );
  }
  if (shown === "dark") {
    return (
      <svg {...common} aria-hidden="true">
        <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />
      </svg>
    );
  }
  return (
    <svg {...common} aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 3a9 9 0 0 1 0 18z" fill="currentColor" />
    </svg>
  );
}

/** A compact button for a bar: each press moves to the next mode (Système → Clair → Sombre). */
export function ColourModeButton() {
  const current = useColourMode();
  const next = MODES[(MODES.indexOf(current) + 1) % MODES.length] as ColourMode;
  return (
    <button
      type="button"
      onClick={() => setColourMode(next)}
      className="flex size-11 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800"
      aria-label={`Thème : ${LABELS[current].toLowerCase()}. Passer au thème ${LABELS[next].toLowerCase()}`}
      title={`Thème : ${LABELS[current].toLowerCase()}`}
    >
      <ModeIcon mode={current} />
    </button>
  );
}

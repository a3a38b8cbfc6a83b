import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export const CHROMIUM_MISSING = `Chromium est introuvable à ${CHROMIUM_PATH}. Installez-le avec « apt-get update && apt-get install -y chromium » (root), ou indiquez son chemin dans CHROMIUM_PATH.
Chromium not found at ${CHROMIUM_PATH}. Install it with "apt-get update && apt-get install -y chromium" (as root), or set CHROMIUM_PATH.`;

/** Flags from STACK.md: nothing leaves the machine. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(CHROMIUM_MISSING);
}

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

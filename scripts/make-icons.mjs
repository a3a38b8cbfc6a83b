// Draws Fidèle's icons: a white heart-shaped loyalty stamp with a teal "F" on the brand teal, inside a perforated
// stamp ring. Writes public/favicon.svg and renders the PNGs (manifest icons, maskable icon, Apple touch icon) with
// the local Chromium, so the pictures come from one drawing. Run: `node scripts/make-icons.mjs` (commit the output).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..");
const out = (name) => path.join(root, "public", name);

const TEAL = "#0f766e";
const TEAL_DARK = "#115e59";

/**
 * The mark on a 512 grid, centred on (256, 256). `scale` shrinks it around the centre (the maskable icon keeps
 * everything inside the 80 % safe circle: https://web.dev/articles/maskable-icon).
 */
function mark(scale = 1) {
  // A heart whose lobes meet at y=166 and whose tip sits at y=410; the F is cut out of it (drawn in teal).
  const heart =
    "M256 410 C 236 396 104 318 104 204 C 104 146 146 108 196 108 C 224 108 244 122 256 146 " +
    "C 268 122 288 108 316 108 C 366 108 408 146 408 204 C 408 318 276 396 256 410 Z";
  // A bold geometric F (three rounded bars), so no font is needed.
  const f = [
    `<rect x="208" y="168" width="40" height="140" rx="20" />`,
    `<rect x="208" y="168" width="104" height="40" rx="20" />`,
    `<rect x="208" y="226" width="84" height="38" rx="19" />`,
  ].join("");
  // Perforations of a stamp: small dots on a circle around the heart.
  const dots = [];
  const count = 28;
  for (let i = 0; i < count; i += 1) {
    const a = (i / count) * Math.PI * 2;
    dots.push(
      `<circle cx="${(256 + 214 * Math.cos(a)).toFixed(2)}" cy="${(256 + 214 * Math.sin(a)).toFixed(2)}" r="7" />`,
    );
  }
  return `<g transform="translate(256 256) scale(${scale}) translate(-256 -256)">
    <g fill="#ffffff" opacity="0.35">${dots.join("")}</g>
    <path d="${heart}" fill="#ffffff" transform="translate(256 262) scale(0.9) translate(-256 -259)" />
    <g fill="${TEAL}" transform="translate(256 262) scale(0.9) translate(-256 -259)">${f}</g>
  </g>`;
}

const gradient = `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#14958a" /><stop offset="0.55" stop-color="${TEAL}" /><stop offset="1" stop-color="${TEAL_DARK}" />
</linearGradient></defs>`;

/** kind: "rounded" (any-purpose icon, transparent corners), "full" (full bleed: maskable, Apple). */
function svg(kind, markScale) {
  const background =
    kind === "rounded"
      ? `<rect width="512" height="512" rx="116" fill="url(#bg)" />`
      : `<rect width="512" height="512" fill="url(#bg)" />`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><title>Fidèle</title>${gradient}${background}${mark(markScale)}</svg>`;
}

const ICONS = [
  { file: "pwa-192x192.png", size: 192, svg: svg("rounded", 1) },
  { file: "pwa-512x512.png", size: 512, svg: svg("rounded", 1) },
  { file: "pwa-512x512-maskable.png", size: 512, svg: svg("full", 0.78) },
  { file: "apple-touch-icon.png", size: 180, svg: svg("full", 0.9) },
];

writeFileSync(out("favicon.svg"), `${svg("rounded", 1)}\n`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    const html = `<!doctype html><html><body style="margin:0;background:transparent">${icon.svg.replace(
      "<svg ",
      `<svg width="${icon.size}" height="${icon.size}" style="display:block" `,
    )}</body></html>`;
    await page.setContent(html);
    await page.screenshot({ path: out(icon.file), omitBackground: true });
    await page.close();
    console.log(`public/${icon.file} (${icon.size}×${icon.size})`);
  }
} finally {
  await browser.close();
}
console.log("public/favicon.svg");

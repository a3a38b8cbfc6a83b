import QRCode from "qrcode";
import { AppError } from "../../../domain/errors.ts";
import { importCodeKey, posterToken, scanUrl } from "../../../domain/loyalty/scan-code.ts";
import type { Db } from "../../db/client.ts";
import type { ShopAccess } from "../../lib/shop-access.ts";
import { designOf } from "../../lib/shop-dto.ts";
import { rulesSummaryFr } from "../cards/card-settings.service.ts";
import { scopedCodeShop } from "../cards/counter.service.ts";

/**
 * The printable A4 poster: a one-page PDF written by hand (no PDF library in the
 * stack) with the standard Helvetica fonts in WinAnsiEncoding — every French
 * letter is in it — and the QR code drawn as filled rectangles, so it prints
 * sharp at any size. PDF 1.4, ISO 32000-1 §7 (file structure) and §9 (text).
 */

// Advance widths (1/1000 em) of Helvetica and Helvetica-Bold for ASCII 32…126, from Adobe's AFM files.
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667,
  778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556,
  222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const HELVETICA_BOLD = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667,
  778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611,
  278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

type Font = "F1" | "F2";

/** WinAnsiEncoding bytes (as a latin1 string) of a text; what it cannot encode becomes "?". */
const WIN_ANSI_EXTRA: Record<string, number> = {
  "€": 0x80, "‚": 0x82, "„": 0x84, "…": 0x85, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "•": 0x95, "–": 0x96, "—": 0x97,
  "œ": 0x9c, "Œ": 0x8c, "Ÿ": 0x9f, "\u202f": 0xa0,
};

function winAnsi(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff)) out += String.fromCharCode(code);
    else if (WIN_ANSI_EXTRA[ch] !== undefined) out += String.fromCharCode(WIN_ANSI_EXTRA[ch]);
    else out += "?";
  }
  return out;
}

function charWidth(byte: number, font: Font): number {
  const table = font === "F2" ? HELVETICA_BOLD : HELVETICA;
  if (byte >= 32 && byte <= 126) return table[byte - 32]!;
  // Accented letters take their base letter's width.
  const base = String.fromCharCode(byte).normalize("NFD").charCodeAt(0);
  if (base >= 32 && base <= 126) return table[base - 32]!;
  return 556;
}

function textWidth(text: string, font: Font, size: number): number {
  let w = 0;
  for (const ch of winAnsi(text)) w += charWidth(ch.charCodeAt(0), font);
  return (w * size) / 1000;
}

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => (v / 255).toFixed(3)).join(" ");
}

function wrap(text: string, font: Font, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, font, size) > maxWidth) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

type PosterInput = {
  shopName: string;
  url: string;
  mode: "stamps" | "points";
  rulesSummary: string;
  design: { background: string; foreground: string; accent: string };
};

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const DARK = "#1c1917";
const MUTED = "#57534e";

function buildPosterPdf(input: PosterInput): Buffer {
  const ops: string[] = [];
  const text = (s: string, font: Font, size: number, color: string, y: number, x?: number) => {
    const left = x ?? (PAGE_W - textWidth(s, font, size)) / 2;
    ops.push(`BT ${rgb(color)} rg /${font} ${size} Tf 1 0 0 1 ${left.toFixed(2)} ${y.toFixed(2)} Tm (${escapePdf(winAnsi(s))}) Tj ET`);
  };

  // Header band in the card's colours.
  ops.push(`${rgb(input.design.background)} rg 0 ${PAGE_H - 130} ${PAGE_W} 130 re f`);
  ops.push(`${rgb(input.design.accent)} rg 0 ${PAGE_H - 136} ${PAGE_W} 6 re f`);
  let nameSize = 34;
  while (nameSize > 14 && textWidth(input.shopName, "F2", nameSize) > PAGE_W - 80) nameSize -= 1;
  text(input.shopName, "F2", nameSize, input.design.foreground, PAGE_H - 72);
  text("Carte de fidélité", "F1", 15, input.design.foreground, PAGE_H - 102);

  text("Scannez ce code avec votre téléphone", "F2", 22, DARK, PAGE_H - 190);
  const unit = input.mode === "stamps" ? "vos tampons" : "vos points";
  text(`et cumulez ${unit} à chaque passage`, "F1", 15, MUTED, PAGE_H - 214);

  // The QR code: dark modules merged into runs per row, 4 modules of quiet zone (ISO/IEC 18004).
  const qr = QRCode.create(input.url, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const qrSize = 300;
  const cell = qrSize / (n + 8);
  const x0 = (PAGE_W - qrSize) / 2;
  const yTop = PAGE_H - 240;
  ops.push(`${rgb(DARK)} rg`);
  for (let r = 0; r < n; r++) {
    let c = 0;
    while (c < n) {
      if (!qr.modules.get(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && qr.modules.get(r, c)) c++;
      const x = x0 + (start + 4) * cell;
      const y = yTop - (r + 5) * cell;
      ops.push(`${x.toFixed(3)} ${y.toFixed(3)} ${((c - start) * cell + 0.01).toFixed(3)} ${(cell + 0.01).toFixed(3)} re`);
    }
  }
  ops.push("f");
  ops.push(`${rgb(input.design.accent)} RG 3 w ${(x0 - 6).toFixed(2)} ${(yTop - qrSize - 6).toFixed(2)} ${qrSize + 12} ${qrSize + 12} re S`);

  // Instructions.
  let y = yTop - qrSize - 50;
  text("Comment faire ?", "F2", 17, DARK, y, 70);
  y -= 28;
  const steps = [
    "Ouvrez l'appareil photo de votre téléphone, ou le scanner de l'application Fidèle.",
    "Visez ce code, puis touchez le lien qui s'affiche.",
    "Connectez-vous ou créez votre compte en quelques secondes : votre passage est crédité.",
  ];
  steps.forEach((step, i) => {
    const lines = wrap(step, "F1", 13, PAGE_W - 160);
    text(`${i + 1}.`, "F2", 13, input.design.background, y, 70);
    for (const line of lines) {
      text(line, "F1", 13, DARK, y, 92);
      y -= 18;
    }
    y -= 6;
  });
  y -= 8;
  for (const line of wrap(`Règles : ${input.rulesSummary}.`, "F1", 11, PAGE_W - 140)) {
    text(line, "F1", 11, MUTED, y, 70);
    y -= 15;
  }
  text("Fidèle — la carte de fidélité des commerces indépendants", "F1", 9, MUTED, 36);

  return assemblePdf(ops.join("\n"), input.shopName);
}

/** Objects, cross-reference table and trailer, with exact byte offsets. */
function assemblePdf(content: string, title: string): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    `<< /Title (${escapePdf(winAnsi(`Affiche Fidèle — ${title}`))}) /Producer (${escapePdf(winAnsi("Fidèle"))}) >>`,
  ];
  let body = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** The A4 poster with the static code (only when the shop allows posters). */
export async function getPosterPdf(db: Db, access: ShopAccess, appUrl: string) {
  const shop = await scopedCodeShop(db, access);
  if (!shop.allowStaticPoster) {
    throw new AppError("CONFLICT", {
      message: "poster not allowed",
      userMessage: "Autorisez d'abord l'affiche imprimée dans les règles de la carte (Design de la carte).",
    });
  }
  const poster = await posterToken(await importCodeKey(shop.codeSecret), shop.scanUid);
  const pdf = buildPosterPdf({
    shopName: shop.name,
    url: scanUrl(appUrl, { scanUid: shop.scanUid, token: null, poster }),
    mode: shop.cardMode,
    rulesSummary: rulesSummaryFr(shop),
    design: designOf(shop.cardDesign),
  });
  return { pdf, filename: `affiche-${shop.slug}.pdf` };
}

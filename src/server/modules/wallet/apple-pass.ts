import { readFileSync } from "node:fs";
import path from "node:path";
import { PKPass } from "passkit-generator";
import type { PassContent } from "../../../domain/wallet/pass-content.ts";
import type { AppleConfig } from "./wallet-config.ts";

/**
 * The Apple Wallet store card (`.pkpass`): pass.json from the one pass content (domain/wallet/pass-content.ts), the
 * icon, the shop's logo when it is a PNG, then passkit-generator writes the SHA-1 manifest and signs it (PKCS#7,
 * detached, with the Pass Type ID certificate and Apple's WWDR intermediate).
 * https://developer.apple.com/documentation/walletpasses/pass
 */

/** The lock screen's and notifications' icon: the app's own (public/, also served by the web app). */
const ICON = readFileSync(path.resolve(import.meta.dirname, "../../../../public/apple-touch-icon.png"));

/** "#0f766e" → "rgb(15, 118, 110)": the colour form pass.json takes. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 0xff}, ${(n >> 8) & 0xff}, ${n & 0xff})`;
}

function applePassJson(config: AppleConfig, pass: { cardId: string; authToken: string }, content: PassContent) {
  return {
    formatVersion: 1,
    passTypeIdentifier: config.passTypeId,
    teamIdentifier: config.teamId,
    serialNumber: pass.cardId,
    authenticationToken: pass.authToken,
    webServiceURL: config.webServiceUrl,
    organizationName: content.shopName,
    description: content.description,
    logoText: content.shopName,
    backgroundColor: rgb(content.colors.background),
    foregroundColor: rgb(content.colors.foreground),
    labelColor: rgb(content.colors.foreground),
    sharingProhibited: true,
    ...(content.voided ? { voided: true } : {}),
    storeCard: {
      primaryFields: [content.balance],
      secondaryFields: content.rewards ? [content.rewards] : [],
      // A store card shows four secondary and auxiliary fields at most: the place and the first bundle or gift card.
      auxiliaryFields: [content.place, ...content.prepaid.slice(0, 1)],
      backFields: content.back,
    },
    ...(content.barcode
      ? {
          barcodes: [
            {
              format: "PKBarcodeFormatQR",
              message: content.barcode.message,
              messageEncoding: "iso-8859-1",
              altText: content.barcode.altText,
            },
          ],
        }
      : {}),
    ...(content.location ? { locations: [content.location] } : {}),
  };
}

export function buildApplePass(
  config: AppleConfig,
  pass: { cardId: string; authToken: string },
  content: PassContent,
  logoPng: Buffer | null,
): Buffer {
  const files: Record<string, Buffer> = {
    "pass.json": Buffer.from(JSON.stringify(applePassJson(config, pass, content))),
    "icon.png": ICON,
    "icon@2x.png": ICON,
  };
  if (logoPng) {
    files["logo.png"] = logoPng;
    files["logo@2x.png"] = logoPng;
  }
  return new PKPass(files, config.certificates).getAsBuffer();
}

export const PKPASS_TYPE = "application/vnd.apple.pkpass";

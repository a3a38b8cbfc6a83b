import { toString as qrToSvg } from "qrcode";
import { useEffect, useState } from "react";

/** The otpauth:// URI drawn as a QR code (SVG, so it stays sharp when scanned from another screen). */
export function TotpQrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    qrToSvg(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#1c1917", light: "#ffffff" } })
      .then((svg) => {
        if (isCurrent) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => setSrc(null));
    return () => {
      isCurrent = false;
    };
  }, [uri]);
  return (
    <div className="mx-auto flex size-52 items-center justify-center rounded-xl border border-stone-200 bg-white p-1">
      {src ? (
        <img src={src} alt="QR code à scanner avec votre application d'authentification" className="size-full" />
      ) : (
        <span
          className="size-6 animate-spin rounded-full border-2 border-brand-700 border-t-transparent"
          aria-hidden="true"
        />
      )}
    </div>
  );
}

/** The base32 secret of an otpauth:// URI, for people who type it instead of scanning. */
export function secretOf(uri: string): string {
  try {
    return new URL(uri).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
}

import QRCode from "qrcode";
import { useMemo } from "react";

/**
 * A QR code drawn as one SVG path of its dark modules (the `qrcode` package gives the matrix), with its quiet zone:
 * sharp at any size, no canvas. The counter's code on /reader and the shopper's reward code.
 */
export function QrImage({ text, label }: { text: string; label: string }) {
  const { path, size } = useMemo(() => {
    const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
    const n = qr.modules.size;
    let d = "";
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) if (qr.modules.get(row, col)) d += `M${col + 2} ${row + 2}h1v1h-1z`;
    }
    return { path: d, size: n + 4 };
  }, [text]);
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="size-full"
      role="img"
      aria-label={label}
      data-qr={text}
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}

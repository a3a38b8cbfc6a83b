/**
 * The QR reader of /validate-reward, loaded by a dynamic import from that page only, once staff turn the camera on:
 * the barcode-detector ponyfill and zxing-wasm's reader (~460 kB gzip of wasm) never reach another page. The wasm
 * is served by this site (the same hashed file as /scanner's, precached by the service worker): without the
 * locateFile override, zxing-wasm would fetch it from a CDN (STACK.md, "Known traps").
 *
 * A copy of src/client/features/cards/components/qr-detector.ts: features do not import each other (CONVENTIONS 7).
 */
import { BarcodeDetector, prepareZXingModule } from "barcode-detector/ponyfill";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

export type QrDetector = { detect: (source: HTMLVideoElement) => Promise<string[]> };

export async function createQrDetector(): Promise<QrDetector> {
  await prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) =>
        path.endsWith(".wasm") ? new URL(wasmUrl, location.href).href : prefix + path,
    },
    fireImmediately: true,
  });
  const detector = new BarcodeDetector({ formats: ["qr_code"] });
  return {
    detect: async (source) => (await detector.detect(source)).map((code) => code.rawValue),
  };
}

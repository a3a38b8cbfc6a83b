/**
 * The QR reader of the camera pages (/scanner, /validate-reward), loaded by a dynamic import once the camera
 * is turned on: the barcode-detector ponyfill and zxing-wasm's reader (~460 kB gzip of wasm) never reach
 * another page. The wasm file is served by this
 * site (Vite copies it into the build, the service worker precaches it): without the locateFile override,
 * zxing-wasm would fetch it from a CDN (STACK.md, "Known traps").
 */
import { BarcodeDetector, prepareZXingModule } from "barcode-detector/ponyfill";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

export type QrDetector = { detect: (source: HTMLVideoElement) => Promise<string[]> };

export async function createQrDetector(): Promise<QrDetector> {
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? new URL(wasmUrl, location.href).href : prefix + path) },
    fireImmediately: true,
  });
  const detector = new BarcodeDetector({ formats: ["qr_code"] });
  return {
    detect: async (source) => (await detector.detect(source)).map((code) => code.rawValue),
  };
}

/** Pictures chosen on the phone, shrunk in the browser before they travel as data URLs (logo, cover, reward photo). */

/** Bytes held by a base64 data URL. */
export function dataUrlBytes(url: string): number {
  const b64 = url.slice(url.indexOf(",") + 1);
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
}

function loadImage(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("unreadable image"));
    };
    image.src = url;
  });
}

/**
 * Shrinks a picture in the browser (a canvas) until its data URL fits `maxBytes`:
 * WebP first (keeps a logo's transparency), JPEG where WebP is not drawn; smaller
 * quality, then smaller size. The API stores images as data URLs within a limit.
 */
export async function resizeImage(
  file: File,
  opts: { maxWidth: number; maxHeight: number; maxBytes: number; square?: boolean },
): Promise<string> {
  const image = await loadImage(file);
  let scale = Math.min(1, opts.maxWidth / image.naturalWidth, opts.maxHeight / image.naturalHeight);
  for (let attempt = 0; attempt < 6; attempt++) {
    const canvas = document.createElement("canvas");
    let sx = 0;
    let sy = 0;
    let sw = image.naturalWidth;
    let sh = image.naturalHeight;
    if (opts.square) {
      // A logo is shown in a circle: keep the centred square.
      const side = Math.min(sw, sh);
      sx = (sw - side) / 2;
      sy = (sh - side) / 2;
      sw = side;
      sh = side;
      scale = Math.min(1, opts.maxWidth / side) * 0.8 ** attempt;
    }
    canvas.width = Math.max(1, Math.round(sw * scale));
    canvas.height = Math.max(1, Math.round(sh * scale));
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no canvas");
    ctx.drawImage(image, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.86, 0.75, 0.62]) {
      let url = canvas.toDataURL("image/webp", quality);
      if (!url.startsWith("data:image/webp")) url = canvas.toDataURL("image/jpeg", quality);
      if (dataUrlBytes(url) <= opts.maxBytes) return url;
    }
    if (!opts.square) scale *= 0.8;
  }
  throw new Error("too large");
}

/**
 * The logo as a small square PNG for Apple Wallet, which takes PNG only (ADR 0045): drawn from the logo's data URL
 * (already made square), transparency kept.
 */
export async function walletLogoPng(logo: string, pixels: number): Promise<string> {
  const image = new Image();
  await new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error("unreadable image"));
    image.src = logo;
  });
  const canvas = document.createElement("canvas");
  canvas.width = pixels;
  canvas.height = pixels;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no canvas");
  ctx.drawImage(image, 0, 0, pixels, pixels);
  return canvas.toDataURL("image/png");
}

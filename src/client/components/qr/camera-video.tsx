import type { RefObject } from "react";

/** The camera's picture under a QR reader (useQrCamera's videoRef): in place from the start, shown once scanning. */
export function CameraVideo({
  videoRef,
  isScanning,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  isScanning: boolean;
}) {
  return (
    <video
      ref={videoRef}
      className={`absolute inset-0 size-full object-cover ${isScanning ? "" : "invisible"}`}
      muted
      playsInline
      aria-label="Image de la caméra"
    />
  );
}

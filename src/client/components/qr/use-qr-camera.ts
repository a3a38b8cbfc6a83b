import { useCallback, useEffect, useRef, useState } from "react";
import type { QrDetector } from "./qr-detector.ts";

/** Why the camera could not scan: each page says it in its own words. */
export type CameraProblem = "unsupported" | "denied" | "no-camera" | "busy" | "reader" | "failed";

type QrCamera =
  | { kind: "off" }
  | { kind: "starting" }
  | { kind: "scanning" }
  | { kind: "blocked"; problem: CameraProblem };

/** What a decoded QR value means to the page: its code (the camera stops and hands it over), or a hint to show. */
export type QrReading<T> = { code: T } | { hint: string };

function problemOf(error: unknown): CameraProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return "denied";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "no-camera";
  if (name === "NotReadableError" || name === "AbortError") return "busy";
  return "failed";
}

/**
 * The camera loop of the QR pages (/scanner, /validate-reward): the camera and the QR reader (wasm, loaded only
 * when the camera is turned on) start side by side, a frame is read every 200 ms, and the first value the page
 * recognises stops the camera and is handed to `onCode`. The camera stops when the page goes away.
 */
export function useQrCamera<T>({
  read,
  onCode,
  video: constraints = { facingMode: { ideal: "environment" } },
}: {
  read: (value: string) => QrReading<T>;
  onCode: (code: T) => void;
  video?: MediaTrackConstraints;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<number | undefined>(undefined);
  const [camera, setCamera] = useState<QrCamera>({ kind: "off" });
  const [hint, setHint] = useState<string | null>(null);
  // The page's callbacks, read at the moment of use: `start` stays the same function across renders.
  const latest = useRef({ read, onCode, constraints });
  latest.current = { read, onCode, constraints };

  const release = useCallback(() => {
    window.clearTimeout(timerRef.current);
    timerRef.current = undefined;
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  }, []);

  const stop = useCallback(() => {
    release();
    setCamera({ kind: "off" });
  }, [release]);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setCamera({ kind: "blocked", problem: "unsupported" });
      return;
    }
    setCamera({ kind: "starting" });
    setHint(null);
    // The camera and the reader load side by side; each failure has its own explanation.
    const [stream, reader] = await Promise.allSettled([
      navigator.mediaDevices.getUserMedia({ video: latest.current.constraints, audio: false }),
      import("./qr-detector.ts").then((engine) => engine.createQrDetector()),
    ]);
    if (stream.status === "fulfilled") streamRef.current = stream.value;
    if (stream.status === "rejected" || reader.status === "rejected") {
      release();
      setCamera({ kind: "blocked", problem: stream.status === "rejected" ? problemOf(stream.reason) : "reader" });
      return;
    }
    const detector: QrDetector = reader.value;
    const video = videoRef.current;
    if (!video) return release();
    video.srcObject = stream.value;
    await video.play().catch(() => {});
    setCamera({ kind: "scanning" });
    const tick = async () => {
      const v = videoRef.current;
      if (!streamRef.current || !v) return;
      if (v.readyState >= 2) {
        try {
          for (const value of await detector.detect(v)) {
            const reading = latest.current.read(value);
            if ("code" in reading) {
              stop();
              latest.current.onCode(reading.code);
              return;
            }
            setHint(reading.hint);
          }
        } catch {
          // A frame that cannot be read (camera still warming up): try the next one.
        }
      }
      timerRef.current = window.setTimeout(tick, 200);
    };
    void tick();
  }, [release, stop]);

  useEffect(() => release, [release]);

  return { videoRef, camera, hint, start, stop };
}

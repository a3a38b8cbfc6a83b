import { describe, expect, it } from "vitest";
import {
  CODE_STEP_SECONDS,
  importCodeKey,
  parseScanCode,
  posterToken,
  randomSecret,
  rotatingToken,
  safeEqual,
  scanUrl,
  stepEndsAt,
  timeStep,
  verifyPosterToken,
  verifyRotatingToken,
} from "./scan-code.ts";

const SECRET = "q2n1M7cV0XkZ8p3rT6wYb4sD9fG2hJ5lA0eR7uI1oPs"; // 32 bytes, base64url
const UID = "Ab12Cd34Ef56Gh78";

describe("rotating code", () => {
  it("changes every 30 s and is valid for the current and the previous step only", async () => {
    const key = await importCodeKey(SECRET);
    const t0 = 1_800_000_000_000; // a step boundary: 1.8e12 ms / 30 000 is whole
    expect(t0 % (CODE_STEP_SECONDS * 1000)).toBe(0);
    const step = timeStep(t0);
    const token = await rotatingToken(key, UID, step);
    expect(await rotatingToken(key, UID, step + 1)).not.toBe(token);
    expect(await verifyRotatingToken(key, UID, token, t0)).toBe("valid");
    expect(await verifyRotatingToken(key, UID, token, t0 + 29_999)).toBe("valid");
    expect(await verifyRotatingToken(key, UID, token, t0 + 59_999)).toBe("valid");
    // 60 s after the token first showed, it is refused.
    expect(await verifyRotatingToken(key, UID, token, t0 + 60_000)).toBe("stale");
    expect(await verifyRotatingToken(key, UID, token, t0 + 3_600_000)).toBe("stale");
  });

  it("refuses a token from the future, of another shop, another key, or tampered", async () => {
    const key = await importCodeKey(SECRET);
    const other = await importCodeKey(randomSecret());
    const now = 1_800_000_000_000;
    const step = timeStep(now);
    expect(await verifyRotatingToken(key, UID, await rotatingToken(key, UID, step + 1), now)).toBe("invalid");
    expect(await verifyRotatingToken(key, "Zz99Yy88Xx77Ww66", await rotatingToken(key, UID, step), now)).toBe("invalid");
    expect(await verifyRotatingToken(key, UID, await rotatingToken(other, UID, step), now)).toBe("invalid");
    const token = await rotatingToken(key, UID, step);
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await verifyRotatingToken(key, UID, flipped, now)).toBe("invalid");
    // A stale step with a forged signature is "invalid", not "stale".
    const forgedOld = `${(step - 5).toString(36)}.${token.split(".")[1]}`;
    expect(await verifyRotatingToken(key, UID, forgedOld, now)).toBe("invalid");
    expect(await verifyRotatingToken(key, UID, "", now)).toBe("invalid");
    expect(await verifyRotatingToken(key, UID, "not a token", now)).toBe("invalid");
  });

  it("tells when the current token stops being current", () => {
    expect(stepEndsAt(timeStep(1_800_000_012_345))).toBe(1_800_000_030_000);
  });
});

describe("poster code", () => {
  it("is static per shop and key, and checked against both", async () => {
    const key = await importCodeKey(SECRET);
    const sig = await posterToken(key, UID);
    expect(await posterToken(key, UID)).toBe(sig);
    expect(await verifyPosterToken(key, UID, sig)).toBe(true);
    expect(await verifyPosterToken(key, "Zz99Yy88Xx77Ww66", sig)).toBe(false);
    expect(await verifyPosterToken(await importCodeKey(randomSecret()), UID, sig)).toBe(false);
    expect(await verifyPosterToken(key, UID, "1")).toBe(false);
  });
});

describe("scan URLs", () => {
  it("round-trips through the URL a phone camera opens", () => {
    const url = scanUrl("https://fidele.example/", { scanUid: UID, token: "abc.def", poster: null });
    expect(url).toBe(`https://fidele.example/boutique/${UID}?t=abc.def`);
    expect(parseScanCode(url)).toEqual({ scanUid: UID, token: "abc.def", poster: null });
    expect(parseScanCode(`/boutique/${UID}?p=xyz`)).toEqual({ scanUid: UID, token: null, poster: "xyz" });
    expect(parseScanCode("https://evil.example/other/path")).toBeNull();
    expect(parseScanCode("/boutique/bad uid")).toBeNull();
    expect(parseScanCode("")).toBeNull();
  });

  it("compares in constant shape", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});

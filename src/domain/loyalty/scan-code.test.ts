import { describe, expect, it } from "vitest";
import {
  CLAIM_TTL_SECONDS,
  CODE_STEP_SECONDS,
  importCodeKey,
  parseScanCode,
  posterToken,
  randomSecret,
  rotatingToken,
  safeEqual,
  scanUrl,
  signScanClaim,
  stepEndsAt,
  timeStep,
  tokenStepOf,
  verifyRotatingToken,
  verifyScanClaim,
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
  it("is static per shop and key, and tied to both", async () => {
    const key = await importCodeKey(SECRET);
    const sig = await posterToken(key, UID);
    expect(await posterToken(key, UID)).toBe(sig);
    expect(await posterToken(key, "Zz99Yy88Xx77Ww66")).not.toBe(sig);
    expect(await posterToken(await importCodeKey(randomSecret()), UID)).not.toBe(sig);
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

describe("scan claim", () => {
  const t0 = 1_800_000_000_000;
  const NONCE = "n0nce-n0nce-n0nce-12";

  it("stands in for its token for 30 minutes, then is expired", async () => {
    const key = await importCodeKey(SECRET);
    const step = timeStep(t0);
    const token = await rotatingToken(key, UID, step);
    expect(tokenStepOf(token)).toBe(step);
    // Opened 20 s into the token's life, used 10 minutes later: the token itself is long stale.
    const claim = await signScanClaim(key, UID, step, t0 + 20_000, NONCE);
    expect(await verifyRotatingToken(key, UID, token, t0 + 600_000)).toBe("stale");
    expect(await verifyScanClaim(key, UID, claim, step, t0 + 600_000)).toEqual({ ok: true, nonce: NONCE });
    expect(await verifyScanClaim(key, UID, claim, step, t0 + 20_000 + CLAIM_TTL_SECONDS * 1000)).toEqual({ ok: true, nonce: NONCE });
    expect(await verifyScanClaim(key, UID, claim, step, t0 + 21_000 + CLAIM_TTL_SECONDS * 1000)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a claim of another shop, key, token step, a tampered one, or one issued when the token was stale", async () => {
    const key = await importCodeKey(SECRET);
    const other = await importCodeKey(randomSecret());
    const step = timeStep(t0);
    const now = t0 + 60_000;
    const claim = await signScanClaim(key, UID, step, t0, NONCE);
    const invalid = { ok: false, reason: "invalid" };
    expect(await verifyScanClaim(key, "ZZ12Cd34Ef56Gh78", claim, step, now)).toEqual(invalid);
    expect(await verifyScanClaim(other, UID, claim, step, now)).toEqual(invalid);
    expect(await verifyScanClaim(key, UID, claim, step - 1, now)).toEqual(invalid);
    const [s, at, nonce, sig] = claim.split(".");
    expect(await verifyScanClaim(key, UID, [s, at, `${nonce}x`, sig].join("."), step, now)).toEqual(invalid);
    expect(await verifyScanClaim(key, UID, [s, (Number.parseInt(at!, 36) - 600).toString(36), nonce, sig].join("."), step, now)).toEqual(invalid);
    expect(await verifyScanClaim(key, UID, "n'importe quoi", step, now)).toEqual(invalid);
    // Signed, but for a token already 60 s old at issue: a claim never extends a stale code.
    const late = await signScanClaim(key, UID, step, t0 + 60_000, NONCE);
    expect(await verifyScanClaim(key, UID, late, step, t0 + 61_000)).toEqual(invalid);
    // Issued in the future (beyond clock skew).
    const future = await signScanClaim(key, UID, step + 10, t0 + 300_000, NONCE);
    expect(await verifyScanClaim(key, UID, future, step + 10, t0)).toEqual(invalid);
  });
});

import { SegmentedMessage } from "sms-segments-calculator";
import { describe, expect, it } from "vitest";
import { checkMobileNumber, formatPhone, toE164 } from "./phone.ts";
import { countSegments } from "./sms-segments.ts";
import { DEFAULT_SEND_WINDOW, isWindowOpen, nextWindowOpening, parseDays, parseHours } from "./send-window.ts";
import { isSmsSpike } from "./sms-spike.ts";
import { buildSmsText, isStopReply } from "./sms-text.ts";

describe("countSegments — GSM-7", () => {
  it("160 plain characters are one SMS, 161 are two parts of 153", () => {
    expect(countSegments("a".repeat(160))).toMatchObject({ encoding: "GSM-7", segments: 1, units: 160, remaining: 0 });
    expect(countSegments("a".repeat(161))).toMatchObject({ encoding: "GSM-7", segments: 2, perSegment: 153 });
    expect(countSegments("a".repeat(306)).segments).toBe(2);
    expect(countSegments("a".repeat(307)).segments).toBe(3);
  });
  it("é è à ù ç É are GSM-7; € [ ] { } ~ ^ | \\ take two septets", () => {
    const c = countSegments("Café à emporter, crème brûlée… non : «Crème» sans û");
    expect(c.encoding).toBe("UCS-2"); // û, « » and … are not GSM-7
    expect(countSegments("Café à emporter, été, où, Ça").encoding).toBe("GSM-7");
    expect(countSegments("10€").units).toBe(4);
    expect(countSegments("€".repeat(80))).toMatchObject({ encoding: "GSM-7", units: 160, segments: 1 });
    expect(countSegments("€".repeat(81))).toMatchObject({ segments: 2 });
  });
  it("an escape pair is never cut between two parts", () => {
    // 152 septets then "€" (2): 154 > 153, so the € starts part 2.
    const c = countSegments(`${"a".repeat(152)}€${"a".repeat(10)}`);
    expect(c).toMatchObject({ segments: 2, units: 164, remaining: 153 - 12 });
  });
  it("agrees with sms-segments-calculator on French texts", () => {
    for (const text of [
      "Boulangerie du Marché : -20 % sur les croissants ce samedi !\nSTOP au 36180",
      "Boulangerie du Marché : votre 10e café est offert. À bientôt !".repeat(3),
      "Le Café : nouvelle carte d'été, venez goûter la crème glacée maison".repeat(2),
      "x".repeat(459),
    ]) {
      const ours = countSegments(text);
      const theirs = new SegmentedMessage(text);
      expect(ours.segments, text).toBe(theirs.segmentsCount);
      expect(ours.encoding, text).toBe(theirs.encodingName === "GSM-7" ? "GSM-7" : "UCS-2");
    }
  });
});

describe("countSegments — UCS-2", () => {
  it("ê â î ô û force UCS-2: 70 in one SMS, 67 per part", () => {
    for (const letter of ["ê", "â", "î", "ô", "û"]) {
      const c = countSegments(`Fête ${letter}`);
      expect(c.encoding).toBe("UCS-2");
      expect(c.nonGsm).toContain(letter);
    }
    expect(countSegments(`ê${"a".repeat(69)}`)).toMatchObject({ segments: 1, units: 70, perSegment: 70 });
    expect(countSegments(`ê${"a".repeat(70)}`)).toMatchObject({ segments: 2, perSegment: 67 });
    expect(countSegments(`ê${"a".repeat(133)}`).segments).toBe(2);
    expect(countSegments(`ê${"a".repeat(134)}`).segments).toBe(3);
  });
  it("an emoji takes two units and is not cut between parts", () => {
    expect(countSegments("🎉").units).toBe(2);
    const c = countSegments(`${"a".repeat(66)}🎉${"a".repeat(10)}`);
    expect(c).toMatchObject({ encoding: "UCS-2", units: 78, segments: 2, remaining: 67 - 12 });
  });
  it("an empty text costs nothing", () => {
    expect(countSegments("").segments).toBe(0);
  });
});

describe("phone numbers", () => {
  it("stores French mobiles in E.164 whatever the spelling", () => {
    expect(toE164("06 12 34 56 78")).toBe("+33612345678");
    expect(toE164("+33 6 12 34 56 78")).toBe("+33612345678");
    expect(toE164("0033612345678")).toBe("+33612345678");
    expect(toE164("07.81.23.45.67")).toBe("+33781234567");
    expect(toE164("+32 470 12 34 56")).toBe("+32470123456");
  });
  it("refuses invalid numbers and landlines with a French message", () => {
    expect(checkMobileNumber("12345")).toMatchObject({ ok: false, message: expect.stringContaining("mobile valide") });
    expect(checkMobileNumber("01 42 68 53 00")).toMatchObject({
      ok: false,
      message: expect.stringContaining("mobile"),
    });
    expect(checkMobileNumber("")).toMatchObject({ ok: false });
  });
  it("shows French numbers nationally", () => {
    expect(formatPhone("+33612345678")).toBe("06 12 34 56 78");
  });
});

describe("SMS text and STOP", () => {
  it("appends « STOP au <number> » to marketing SMS only", () => {
    expect(buildSmsText({ shopName: "Le Fournil", body: " -20 % ", stopNumber: "36180", marketing: true })).toBe(
      "Le Fournil : -20 %\nSTOP au 36180",
    );
    expect(buildSmsText({ shopName: "Le Fournil", body: "Test", stopNumber: "36180", marketing: false })).toBe(
      "Le Fournil : Test",
    );
  });
  it("recognises STOP replies", () => {
    for (const t of ["STOP", "stop", " Stop SMS", "Arrêt", "ARRET", "stopall"]) expect(isStopReply(t), t).toBe(true);
    for (const t of ["Merci", "non stop", "STOPPER?"]) expect(isStopReply(t), t).toBe(false);
  });
});

describe("send window (Monday–Saturday 08:00–20:00 Paris, no public holidays)", () => {
  const at = (iso: string) => new Date(iso);
  it("a campaign at 21:00 on a Saturday leaves on Monday at 08:00", () => {
    // Saturday 21 November 2026, 21:00 in Paris (UTC+1).
    const saturday = at("2026-11-21T20:00:00Z");
    expect(isWindowOpen(saturday)).toBe(false);
    expect(nextWindowOpening(saturday).toISOString()).toBe("2026-11-23T07:00:00.000Z");
  });
  it("opens at 08:00 the same day before the window, and is open inside it", () => {
    expect(nextWindowOpening(at("2026-11-24T05:30:00Z")).toISOString()).toBe("2026-11-24T07:00:00.000Z");
    const open = at("2026-11-24T12:00:00Z");
    expect(nextWindowOpening(open)).toBe(open);
    expect(isWindowOpen(at("2026-11-24T18:59:00Z"))).toBe(true); // 19:59 Paris
    expect(isWindowOpen(at("2026-11-24T19:00:00Z"))).toBe(false); // 20:00 Paris
  });
  it("skips Sundays and public holidays", () => {
    // Friday 7 May 2027 at 21:00 Paris (UTC+2): Saturday 8 May (Victoire 1945) is closed, Sunday too → Monday 10 May.
    expect(nextWindowOpening(at("2027-05-07T19:00:00Z")).toISOString()).toBe("2027-05-10T06:00:00.000Z");
    // Christmas 2026 is a Friday: Thursday evening → Saturday 26 December 08:00.
    expect(nextWindowOpening(at("2026-12-24T19:30:00Z")).toISOString()).toBe("2026-12-26T07:00:00.000Z");
    // Whit Monday 2026 (25 May) is a holiday.
    expect(isWindowOpen(at("2026-05-25T10:00:00Z"))).toBe(false);
  });
  it("parses the operator's settings", () => {
    expect(parseDays("1-6")).toEqual([1, 2, 3, 4, 5, 6]);
    expect(parseDays("1,3,5-7")).toEqual([1, 3, 5, 6, 7]);
    expect(parseDays("0-8")).toBeNull();
    expect(parseHours("08:00-20:00")).toEqual({ from: 480, to: 1200 });
    expect(parseHours("20:00-08:00")).toBeNull();
    expect(nextWindowOpening(at("2026-11-22T12:00:00Z"), { ...DEFAULT_SEND_WINDOW, days: [7] })).toEqual(
      at("2026-11-22T12:00:00Z"),
    );
  });
});

describe("describeWindowFr", () => {
  it("says the window in French", async () => {
    const { describeWindowFr } = await import("./send-window.ts");
    expect(describeWindowFr(DEFAULT_SEND_WINDOW)).toBe("du lundi au samedi, de 8 h 00 à 20 h 00, hors jours fériés");
    expect(describeWindowFr({ days: [1, 3, 5], from: 540, to: 1140, onHolidays: true })).toBe(
      "les lundi, mercredi et vendredi, de 9 h 00 à 19 h 00",
    );
  });
});

describe("SMS spike alert", () => {
  const rule = { factor: 5, minSegments: 100 };
  it("stays quiet under the floor, even for a shop that never sent", () => {
    expect(isSmsSpike(99, 0, rule)).toBe(false);
    expect(isSmsSpike(100, 0, rule)).toBe(true);
  });
  it("follows the shop's own habit: five times its daily mean of the 28 days before", () => {
    // 56 a day for 28 days: a mean of 56; 280 is exactly 5× (no alert), 281 is above.
    expect(isSmsSpike(280, 56 * 28, rule)).toBe(false);
    expect(isSmsSpike(281, 56 * 28, rule)).toBe(true);
  });
});

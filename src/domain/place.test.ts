import { describe, expect, it } from "vitest";
import { cleanTimeZone, networkOf, placeLabel, placeOfTimeZone } from "./place.ts";

describe("approximate place", () => {
  it("cuts an address to its network, never keeping the host", () => {
    expect(networkOf("203.0.113.42")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:198.51.100.7")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:85a3::8a2e:370:7334")).toBe("2001:db8:85a3::/48");
    expect(networkOf("2001:0db8:0000:0042:0000:8a2e:0370:7334")).toBe("2001:db8:0::/48");
    expect(networkOf("192.168.1.20")).toBe("local");
    expect(networkOf("127.0.0.1")).toBe("local");
    expect(networkOf("::1")).toBe("local");
    expect(networkOf("unknown")).toBeNull();
    expect(networkOf("999.1.1.1")).toBeNull();
    expect(networkOf(null)).toBeNull();
  });

  it("names a time zone in French, or its city", () => {
    expect(placeOfTimeZone("Europe/Paris")).toBe("France");
    expect(placeOfTimeZone("Indian/Reunion")).toBe("La Réunion");
    expect(placeOfTimeZone("America/Sao_Paulo")).toBe("Sao Paulo");
    expect(placeOfTimeZone("UTC")).toBeNull();
    expect(placeOfTimeZone("Etc/GMT+2")).toBeNull();
  });

  it("accepts only what looks like a time zone", () => {
    expect(cleanTimeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(cleanTimeZone("America/Argentina/Buenos_Aires")).toBe("America/Argentina/Buenos_Aires");
    expect(cleanTimeZone("<script>")).toBeNull();
    expect(cleanTimeZone("a".repeat(80))).toBeNull();
    expect(cleanTimeZone(undefined)).toBeNull();
  });

  it("labels a session", () => {
    expect(placeLabel("Europe/Paris", "203.0.113.0/24")).toBe("France · réseau 203.0.113.0/24");
    expect(placeLabel(null, "local")).toBe("Réseau local");
    expect(placeLabel("Europe/Brussels", null)).toBe("Belgique");
    expect(placeLabel(null, null)).toBeNull();
  });
});

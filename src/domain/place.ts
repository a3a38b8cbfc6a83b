/**
 * The approximate place of a session (/admin/sessions) without any geo-IP database or network call
 * (docs/decisions/0028-approximate-place.md): the browser's IANA time zone, recorded with the first heartbeat,
 * named in French; and the address cut to its network (IPv4 /24, IPv6 /48), which is all that is ever stored.
 */

/** Time zones named after their country or territory (the French-speaking world first), in French. */
const ZONES: Record<string, string> = {
  "Europe/Paris": "France",
  "Europe/Brussels": "Belgique",
  "Europe/Luxembourg": "Luxembourg",
  "Europe/Zurich": "Suisse",
  "Europe/Monaco": "Monaco",
  "Europe/Andorra": "Andorre",
  "America/Montreal": "Canada (Québec)",
  "America/Toronto": "Canada (Est)",
  "America/Vancouver": "Canada (Ouest)",
  "Indian/Reunion": "La Réunion",
  "Indian/Mayotte": "Mayotte",
  "America/Guadeloupe": "Guadeloupe",
  "America/Martinique": "Martinique",
  "America/Cayenne": "Guyane",
  "America/Miquelon": "Saint-Pierre-et-Miquelon",
  "Pacific/Noumea": "Nouvelle-Calédonie",
  "Pacific/Tahiti": "Polynésie française",
  "Pacific/Wallis": "Wallis-et-Futuna",
  "Africa/Casablanca": "Maroc",
  "Africa/Algiers": "Algérie",
  "Africa/Tunis": "Tunisie",
  "Africa/Dakar": "Sénégal",
  "Africa/Abidjan": "Côte d'Ivoire",
  "Africa/Douala": "Cameroun",
  "Africa/Kinshasa": "RD Congo",
  "Europe/London": "Royaume-Uni",
  "Europe/Dublin": "Irlande",
  "Europe/Madrid": "Espagne",
  "Europe/Lisbon": "Portugal",
  "Europe/Rome": "Italie",
  "Europe/Berlin": "Allemagne",
  "Europe/Amsterdam": "Pays-Bas",
  "Europe/Vienna": "Autriche",
  "Europe/Warsaw": "Pologne",
  "Europe/Athens": "Grèce",
  "America/New_York": "États-Unis (Est)",
  "America/Chicago": "États-Unis (Centre)",
  "America/Denver": "États-Unis (Montagnes)",
  "America/Los_Angeles": "États-Unis (Ouest)",
  "Asia/Tokyo": "Japon",
  "Asia/Shanghai": "Chine",
  "Australia/Sydney": "Australie (Est)",
};

const TIME_ZONE = /^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/** A browser's time zone as sent, or null when it is not one (it is only ever shown, never trusted). */
export function cleanTimeZone(value: string | null | undefined): string | null {
  const v = value?.trim() ?? "";
  return v.length > 0 && v.length <= 64 && TIME_ZONE.test(v) ? v : null;
}

/** "Europe/Paris" → "France"; an unlisted zone → its city ("America/Sao_Paulo" → "Sao Paulo"); UTC → null. */
export function placeOfTimeZone(timeZone: string | null): string | null {
  if (!timeZone) return null;
  const known = ZONES[timeZone];
  if (known) return known;
  const city = timeZone.split("/").at(-1);
  if (!city || !timeZone.includes("/") || timeZone.startsWith("Etc/")) return null;
  return city.replaceAll("_", " ");
}

const PRIVATE_V4 = [/^10\./, /^127\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./];

/**
 * The address cut to its network: "203.0.113.42" → "203.0.113.0/24", "2001:db8:85a3::8a2e:370:7334" →
 * "2001:db8:85a3::/48"; a private or loopback address → "local"; anything else → null.
 */
export function networkOf(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const address = ip.trim().replace(/^::ffff:/i, "");
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    if (v4.slice(1).some((part) => Number(part) > 255)) return null;
    if (PRIVATE_V4.some((re) => re.test(address))) return "local";
    return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  }
  if (!/^[0-9a-f:]+$/i.test(address) || !address.includes(":")) return null;
  const lower = address.toLowerCase();
  if (lower === "::1" || lower.startsWith("fe80:") || /^f[cd]/.test(lower)) return "local";
  const [head = "", tail] = lower.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...headGroups, ...Array(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  const prefix = groups.slice(0, 3).map((g) => g.replace(/^0+(?=.)/, ""));
  return `${prefix.join(":")}::/48`;
}

/** What /admin/sessions shows: « France · réseau 203.0.113.0/24 », « Réseau local », or null when nothing is known. */
export function placeLabel(timeZone: string | null, network: string | null): string | null {
  const place = placeOfTimeZone(timeZone);
  const net = network === "local" ? "réseau local" : network ? `réseau ${network}` : null;
  if (place && net) return `${place} · ${net}`;
  if (place) return place;
  return net ? net.charAt(0).toUpperCase() + net.slice(1) : null;
}

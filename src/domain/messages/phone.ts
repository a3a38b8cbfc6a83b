import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/**
 * Phone numbers as libphonenumber-js reads them (Google's libphonenumber metadata):
 * what a person types ("06 12 34 56 78", "+33 6 12…", "0033 6…") becomes E.164
 * ("+33612345678"); France is the default country. The "mobile" metadata of the
 * library validates mobile numbers only: a landline (which cannot receive an SMS) is refused.
 */
const DEFAULT_PHONE_COUNTRY = "FR" as const;

type PhoneCheck = { ok: true; e164: string } | { ok: false; message: string };

export function checkMobileNumber(input: string): PhoneCheck {
  const raw = input.trim().replace(/^00/, "+");
  if (raw === "") return { ok: false, message: "Indiquez un numéro de mobile." };
  const parsed = parsePhoneNumberFromString(raw, DEFAULT_PHONE_COUNTRY);
  if (!parsed?.isValid()) {
    return { ok: false, message: "Ce numéro n'est pas un numéro de mobile valide (ex. 06 12 34 56 78)." };
  }
  return { ok: true, e164: parsed.number };
}

/** E.164 (or anything) → E.164, or null when it is not a valid mobile number. */
export function toE164(input: string): string | null {
  const check = checkMobileNumber(input);
  return check.ok ? check.e164 : null;
}

/** For people: a French number in its national form ("06 12 34 56 78"), others internationally. */
export function formatPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === DEFAULT_PHONE_COUNTRY ? parsed.formatNational() : parsed.formatInternational();
}

import { randomKey } from "./random-key.ts";

const DEVICE_KEY = "fidele:device-id";

/**
 * The id this phone keeps for good (localStorage), so the shop can notice many accounts on one device: sent with
 * scans and with contest entries (one person, one entry: src/domain/contests/one-person.ts).
 */
export function deviceId(): string | undefined {
  try {
    let id = localStorage.getItem(DEVICE_KEY);
    if (!id || !/^[A-Za-z0-9_-]{8,100}$/.test(id)) {
      id = randomKey();
      localStorage.setItem(DEVICE_KEY, id);
    }
    return id;
  } catch {
    return undefined;
  }
}

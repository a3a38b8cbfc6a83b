import type { ScanClaimRequestInput } from "../../../../domain/schemas/cards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

/**
 * POST /api/cards/scan-claims: a counter code opened signed out. `{ claim, expiresAt }` (null when the code is
 * no longer valid) is kept with the pending scan and sent with it once the person has signed in or up.
 */
export const postScanClaim = (json: ScanClaimRequestInput) => unwrap(api.cards["scan-claims"].$post({ json }));

import type { ScanRequestInput } from "../../../../domain/schemas/cards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

type HcScanBody = Parameters<typeof api.cards.scan.$post>[0]["json"];

/**
 * POST /api/cards/scan: every recorded outcome is an answer (200) with a French message; 401 when signed out.
 * The body is the schema's *input* (absent fields, not null): hc's type shows the validator's output instead.
 */
export const postScan = (json: ScanRequestInput) => unwrap(api.cards.scan.$post({ json: json as HcScanBody }));

export type ScanAnswer = Awaited<ReturnType<typeof postScan>>;

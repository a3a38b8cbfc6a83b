import { api, unwrap } from "../../../lib/api-client.ts";

/** A shop's import of former customers and balances (owner, ADR 0049): preview, import, the codes to hand over. */

export const previewImport = (shopId: string, csv: string) =>
  unwrap(api.backoffice.shops[":shopId"].imports.preview.$post({ param: { shopId }, json: { csv } }));
export type ImportPreview = Awaited<ReturnType<typeof previewImport>>;

export const commitImport = (shopId: string, csv: string) =>
  unwrap(api.backoffice.shops[":shopId"].imports.$post({ param: { shopId }, json: { csv } }));

export const listInvitations = (shopId: string, batchId: string) =>
  unwrap(
    api.backoffice.shops[":shopId"].imports.invitations.$get({
      param: { shopId },
      query: { batchId, limit: "20000" },
    }),
  ).then((r) => r.invitations);
export type Invitation = Awaited<ReturnType<typeof listInvitations>>[number];

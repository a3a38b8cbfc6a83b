import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReferralSettings } from "../../../../domain/referrals/referrals.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { deviceId } from "../../../lib/device-id.ts";

/** Query keys of parrainage: the shopper's under ["referrals"], the owner's under the shop's back-office prefix. */
const referralsKeys = {
  link: (slug: string) => ["referrals", "link", slug] as const,
  invite: (code: string) => ["referrals", "invite", code] as const,
  admin: (shopId: string) => backofficeKeys.part(shopId, "referrals"),
};

/** POST /api/referrals/link: my link for a shop (made on first sight; the phone's device id goes with it). */
const getMyLink = (shopSlug: string) =>
  unwrap(api.referrals.link.$post({ json: { shopSlug, deviceId: deviceId() ?? null } }));
export const myLinkQueryOptions = (shopSlug: string) =>
  queryOptions({ queryKey: referralsKeys.link(shopSlug), queryFn: () => getMyLink(shopSlug), retry: false });

/** GET /api/referrals/invites/:code: an invitation as the friend sees it. */
const getInvite = (code: string) => unwrap(api.referrals.invites[":code"].$get({ param: { code } }));
export const inviteQueryOptions = (code: string) =>
  queryOptions({ queryKey: referralsKeys.invite(code), queryFn: () => getInvite(code), retry: false });

export function useAcceptInvite(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.referrals.invites[":code"].accept.$post({
          param: { code },
          json: { deviceId: deviceId() ?? null },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: referralsKeys.invite(code) }),
  });
}

/** /admin/parrainage: the settings, the totals, who brought whom (held ones first). */
const getReferralsPage = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].referrals.$get({ param: { shopId } }));
export type ReferralsPage = Awaited<ReturnType<typeof getReferralsPage>>;
export const referralsPageQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: referralsKeys.admin(shopId), queryFn: () => getReferralsPage(shopId) });

export function useSaveReferralProgram(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ReferralSettings) =>
      unwrap(api.backoffice.shops[":shopId"].referrals.program.$put({ param: { shopId }, json: settings })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: referralsKeys.admin(shopId) }),
  });
}

export function useDecideReferral(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, release }: { id: string; release: boolean }) =>
      unwrap(
        api.backoffice.shops[":shopId"].referrals[":id"].decision.$post({ param: { shopId, id }, json: { release } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: referralsKeys.admin(shopId) }),
  });
}

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { PlatformAudience, Segment } from "../../../../domain/messages/segments.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** The composer's two senders: a shop (/admin/envoyer-un-message) or the platform (/admin/push). */
export type SenderScope = { kind: "shop"; shopId: string } | { kind: "platform" };
export const scopeKey = (scope: SenderScope) => (scope.kind === "shop" ? scope.shopId : "platform");

const getComposer = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].messages.composer.$get({ param: { shopId } }));
export const composerQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: messagesKeys.composer(shopId), queryFn: () => getComposer(shopId) });

type Target = { segment: Segment; audience: PlatformAudience; push: boolean; email: boolean; sms: boolean };

/** How many people the message would reach (all channels, and by push), before sending. */
const countAudience = (scope: SenderScope, target: Target) =>
  scope.kind === "shop"
    ? unwrap(
        api.backoffice.shops[":shopId"].messages.audience.$post({
          param: { shopId: scope.shopId },
          json: { segment: target.segment, push: target.push, email: target.email, sms: target.sms },
        }),
      )
    : unwrap(
        api.messages.platform.audience.$post({
          json: { audience: target.audience, push: target.push, email: target.email },
        }),
      );

export const audienceQueryOptions = (scope: SenderScope, target: Target) =>
  queryOptions({
    queryKey: messagesKeys.audience(scopeKey(scope), target),
    queryFn: () => countAudience(scope, target),
    staleTime: 10_000,
  });

export type Draft = {
  title: string;
  body: string;
  imageUrl: string;
  linkUrl: string;
  push: boolean;
  email: boolean;
  /** SMS too (shops only). */
  sms: boolean;
  scheduledAt: string | null;
  segment: Segment;
  audience: PlatformAudience;
};

export function useSendMessage(scope: SenderScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: Draft) => {
      const content = {
        title: draft.title,
        body: draft.body,
        imageUrl: draft.imageUrl,
        linkUrl: draft.linkUrl,
        push: draft.push,
        email: draft.email,
        scheduledAt: draft.scheduledAt,
      };
      return scope.kind === "shop"
        ? unwrap(
            api.backoffice.shops[":shopId"].messages.$post({
              param: { shopId: scope.shopId },
              json: { ...content, sms: draft.sms, segment: draft.segment },
            }),
          )
        : unwrap(api.messages.platform.sent.$post({ json: { ...content, audience: draft.audience } }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKeys.sent(scopeKey(scope)) }),
  });
}

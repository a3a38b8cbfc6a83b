import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Segment } from "../../../../domain/messages/segments.ts";
import type { NewsletterContent } from "../../../../domain/messages/newsletter-blocks.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** A shop's newsletters (/admin/newsletter): /api/backoffice/shops/:shopId/newsletters/… */
const shopApi = api.backoffice.shops[":shopId"].newsletters;

const getEditor = (shopId: string) => unwrap(shopApi.editor.$get({ param: { shopId } }));
export type EditorContext = Awaited<ReturnType<typeof getEditor>>;
export const editorQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: messagesKeys.newsletterEditor(shopId), queryFn: () => getEditor(shopId) });

export const newsletterAudienceQueryOptions = (shopId: string, segment: Segment) =>
  queryOptions({
    queryKey: messagesKeys.newsletterAudience(shopId, segment),
    queryFn: () => unwrap(shopApi.audience.$post({ param: { shopId }, json: { segment } })),
    staleTime: 10_000,
  });

/** The rendered e-mail (HTML and text) as the owner would receive it. */
export const previewQueryOptions = (shopId: string, content: NewsletterContent) =>
  queryOptions({
    queryKey: messagesKeys.newsletterPreview(shopId, content),
    queryFn: () => unwrap(shopApi.preview.$post({ param: { shopId }, json: content })),
    staleTime: 60_000,
    retry: false,
  });

const listCampaigns = (shopId: string) =>
  unwrap(shopApi.$get({ param: { shopId } })).then((r) => r.newsletters);
export type Campaign = Awaited<ReturnType<typeof listCampaigns>>[number];

export const campaignsQueryOptions = (shopId: string) =>
  queryOptions({
    queryKey: messagesKeys.newsletters(shopId),
    queryFn: () => listCampaigns(shopId),
    // While one is sending, the bar moves: re-read every 2 s.
    refetchInterval: (query) => (query.state.data?.some((m) => m.status === "sending") ? 2000 : false),
  });

export function useSendTest(shopId: string) {
  return useMutation({
    mutationFn: (content: NewsletterContent) => unwrap(shopApi.test.$post({ param: { shopId }, json: content })),
  });
}

type CampaignDraft = NewsletterContent & { segment: Segment; scheduledAt: string | null };

export function useCreateCampaign(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: CampaignDraft) => unwrap(shopApi.$post({ param: { shopId }, json: draft })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKeys.newsletters(shopId) }),
  });
}

export function useCampaignAction(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: "pause" | "resume" | "cancel" }) =>
      unwrap(shopApi[":id"][":action"].$post({ param: { shopId, id, action } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKeys.newsletters(shopId) }),
  });
}

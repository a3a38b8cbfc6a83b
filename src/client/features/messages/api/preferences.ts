import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { messagesKeys } from "./keys.ts";

/** GET /api/messages/preferences: my choices per channel and per shop, the wording, the push key. */
const getPreferences = () => unwrap(api.messages.preferences.$get());
export type Preferences = Awaited<ReturnType<typeof getPreferences>>;
export const preferencesQueryOptions = () =>
  queryOptions({ queryKey: messagesKeys.preferences(), queryFn: getPreferences });

type PreferenceChoice = { shopId: string | null; channel: "inapp" | "push" | "email" | "sms"; granted: boolean };

/** PUT /api/messages/preferences: one choice, stored with its wording and time. */
export function useSetPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: PreferenceChoice) => unwrap(api.messages.preferences.$put({ json: choice })),
    onSuccess: (data) => {
      queryClient.setQueryData(messagesKeys.preferences(), data);
      void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
    },
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { cardsKeys } from "./keys.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

/** GET /api/cards/personal-code: « Ma carte client », the code staff scan or type to credit a visit. */
const getPersonalCode = () => unwrap(api.cards["personal-code"].$get()).then((r) => r.personalCode);

const personalCodeQueryOptions = () =>
  queryOptions({ queryKey: cardsKeys.personalCode(), queryFn: getPersonalCode, staleTime: 5 * 60_000 });

export const usePersonalCode = (enabled: boolean) => useQuery({ ...personalCodeQueryOptions(), enabled });

/** POST /api/cards/personal-code: a new code; the old one stops working at once. */
export function useRenewPersonalCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.cards["personal-code"].$post()).then((r) => r.personalCode),
    onSuccess: (code) => queryClient.setQueryData(personalCodeQueryOptions().queryKey, code),
  });
}

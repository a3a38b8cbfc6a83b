import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";

/** GET /api/cards/personal-code: « Ma carte client », the code staff scan or type to credit a visit. */
export const getPersonalCode = () => unwrap(api.cards["personal-code"].$get()).then((r) => r.personalCode);
export type PersonalCode = Awaited<ReturnType<typeof getPersonalCode>>;

export const personalCodeQueryOptions = () =>
  queryOptions({ queryKey: ["cards", "personal-code"], queryFn: getPersonalCode, staleTime: 5 * 60_000 });

export const usePersonalCode = (enabled: boolean) => useQuery({ ...personalCodeQueryOptions(), enabled });

/** POST /api/cards/personal-code: a new code; the old one stops working at once. */
export function useRenewPersonalCode() {
  const queryClient = useQueryClient();
  return async () => {
    const code = await unwrap(api.cards["personal-code"].$post()).then((r) => r.personalCode);
    queryClient.setQueryData(personalCodeQueryOptions().queryKey, code);
    return code;
  };
}

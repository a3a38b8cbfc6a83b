import { useMutation, useQueryClient } from "@tanstack/react-query";
import { prepaidKeys } from "../../../components/prepaid/prepaid-api.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

/** POST /api/prepaid/claim: a gift card or an imported balance becomes mine. My cards and holdings refresh. */
export function useClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => unwrap(api.prepaid.claim.$post({ json: { code } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: prepaidKeys.mine() });
      void queryClient.invalidateQueries({ queryKey: ["cards"] });
    },
  });
}

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { useNavigate } from "react-router";
import { ApiError } from "../../../lib/api-client.ts";
import { randomKey } from "../../../lib/random-key.ts";
import { BALANCE_KEYS, rewardsKeys } from "./keys.ts";

/**
 * A tap that reserves something to show at the counter (a reward, a VIP or birthday gift). One tap gets one key,
 * kept for retries after a network failure, so it never reserves twice; a refusal is final (a new tap is a new
 * attempt). Reserved: the balances elsewhere are out of date, and the redemption's own page opens.
 */
export function useReservation<R extends { id: string }>(
  reserve: (idempotencyKey: string) => Promise<R>,
  { onRefused }: { onRefused?: () => void } = {},
) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const key = useRef<string | null>(null);
  const mutation = useMutation({
    mutationFn: reserve,
    onSuccess: (redemption) => {
      key.current = null;
      queryClient.setQueryData(rewardsKeys.redemption(redemption.id), redemption);
      for (const k of BALANCE_KEYS) void queryClient.invalidateQueries({ queryKey: [...k] });
      navigate(`/validation-recompense/${redemption.id}`);
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status !== 0) {
        key.current = null;
        onRefused?.();
      }
    },
  });
  return {
    ...mutation,
    /** Busy from the tap until the redemption's page opens. */
    isBusy: mutation.isPending || mutation.isSuccess,
    reserveNow: () => {
      key.current ??= randomKey();
      mutation.mutate(key.current);
    },
  };
}

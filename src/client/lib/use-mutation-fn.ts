import { useMutation } from "@tanstack/react-query";
import { useCallback } from "react";

/**
 * A call that changes something, made through TanStack Query's useMutation (so that every change the app makes
 * goes through one place: the query client's mutation cache and defaults). The page gets back a function with the
 * same arguments and answer as the call, to await in its own handler.
 */
export function useMutationFn<A extends unknown[], R>(call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  const { mutateAsync } = useMutation({ mutationFn: (args: A) => call(...args) });
  return useCallback((...args: A) => mutateAsync(args), [mutateAsync]);
}

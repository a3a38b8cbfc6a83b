import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
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

/**
 * A settings write whose answer is the new settings: the read's cached copy (`queryKey`) becomes that answer, with
 * no second request, and the reads in `also` (other places that show them) are fetched again. The page gets the call
 * to await, as with useMutationFn.
 */
export function useSaveSettings<I, R>(queryKey: QueryKey, save: (input: I) => Promise<R>, also: QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      return Promise.all(also.map((key) => queryClient.invalidateQueries({ queryKey: key })));
    },
  }).mutateAsync;
}

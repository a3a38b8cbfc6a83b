import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./api-client.ts";

export const getMe = () => unwrap(api.accounts.me.$get()).then((r) => r.me);

export const meQueryOptions = () => queryOptions({ queryKey: ["me"], queryFn: getMe, staleTime: 60_000 });

export const useMe = () => useQuery(meQueryOptions());

export type Me = NonNullable<Awaited<ReturnType<typeof getMe>>>;

import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contentKeys } from "./keys.ts";

/** The signed-in shopper's account facts: member since, last seen, active sessions. */
export const getActivity = () => unwrap(api.content.activity.$get()).then((r) => r.activity);

export const activityQueryOptions = () => queryOptions({ queryKey: contentKeys.activity(), queryFn: getActivity });

export const useActivity = () => useQuery(activityQueryOptions());

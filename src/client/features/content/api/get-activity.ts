import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contentKeys } from "./keys.ts";

/** The signed-in shopper's account facts: member since, last seen, active sessions. */
const getActivity = () => unwrap(api.content.activity.$get()).then((r) => r.activity);

const activityQueryOptions = () => queryOptions({ queryKey: contentKeys.activity(), queryFn: getActivity });

export const useActivity = () => useQuery(activityQueryOptions());

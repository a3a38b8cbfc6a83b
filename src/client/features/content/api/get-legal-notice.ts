import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contentKeys } from "./keys.ts";

/** The operator's identity (company, address, publication director, host, contact), from its configuration. */
const getLegalNotice = () => unwrap(api.content.legal.$get()).then((r) => r.legal);

const legalNoticeQueryOptions = () =>
  queryOptions({ queryKey: contentKeys.legalNotice(), queryFn: getLegalNotice, staleTime: 60 * 60_000 });

export const useLegalNotice = () => useQuery(legalNoticeQueryOptions());

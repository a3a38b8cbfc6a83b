import type { ReactNode } from "react";
import { LoadError } from "../errors/load-error.tsx";
import { Skeleton } from "./skeleton.tsx";

type Query<T> = { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown };

/** A query's three states: grey blocks while it loads, its error with a retry, then its data. */
export function QueryState<T>({
  query,
  blocks = 1,
  children,
}: {
  query: Query<T>;
  /** How many grey blocks stand for it while it loads. */
  blocks?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.isError) return <LoadError error={query.error} onRetry={() => query.refetch()} />;
  if (query.isPending || query.data === undefined) return <Skeleton blocks={blocks} />;
  return <>{children(query.data)}</>;
}

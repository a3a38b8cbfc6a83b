import { CSV_BOM, type CsvValue, csvLine } from "../../domain/loyalty/csv.ts";

/**
 * What the back-office lists share (issue 11): a page costs its rows, not the table. Counts stop at LIST_COUNT_CAP
 * (the page then says « plus de 10 000 »), and CSV exports are streamed batch after batch on the list's own order.
 */

/** Lists count up to here; beyond, the page says « plus de 10 000 ». */
export const LIST_COUNT_CAP = 10_000;

/** A count made with `limit LIST_COUNT_CAP + 1`, as the page shows it. */
export const cappedTotal = (n: number) =>
  n > LIST_COUNT_CAP ? { total: LIST_COUNT_CAP, totalIsCapped: true } : { total: n, totalIsCapped: false };

/** Where a batch ends: the sort key as text, the row's id (and, for scans, whether it is flagged). */
export type ListKeyset = { k: string; id: string; flagged?: boolean } | null;

/** Rows per query of a CSV export. */
export const CSV_BATCH = 1_000;

/** Rows turned into text in one go: between two slices the event loop serves other requests (setImmediate). */
const CSV_SLICE = 200;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A CSV file written as it is read: batches of CSV_BATCH rows (keyset on the list's own order), each
 * turned into text CSV_SLICE rows at a time (yielding to the event loop between slices) and handed to the client
 * before the next is read, so memory stays flat, other requests keep being served and every row is in the file.
 * `next(after)` returns a batch and the key to continue from.
 */
export function csvStream<R>(
  headers: readonly string[],
  next: (after: ListKeyset) => Promise<{ rows: R[]; last: ListKeyset }>,
  toRow: (r: R) => CsvValue[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: ListKeyset = null;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`${CSV_BOM}${csvLine(headers)}`));
          return;
        }
        if (done) return;
        const batch = await next(after);
        for (let i = 0; i < batch.rows.length; i += CSV_SLICE) {
          if (i > 0) await yieldToLoop();
          const text = batch.rows
            .slice(i, i + CSV_SLICE)
            .map((r) => csvLine(toRow(r)))
            .join("");
          controller.enqueue(encoder.encode(text));
        }
        if (batch.rows.length < CSV_BATCH || !batch.last) {
          done = true;
          controller.close();
        } else {
          after = batch.last;
        }
      },
    },
    { highWaterMark: 1 },
  );
}

/** A streamed CSV export as the browser downloads it. */
export const csvResponse = (body: ReadableStream<Uint8Array>, filename: string) =>
  new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
    },
  });

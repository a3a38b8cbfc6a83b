import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { PAYMENT_METHOD_LABELS_FR, PAYMENT_METHODS } from "../../../domain/loyalty/prepaid.ts";
import { prepaidSaleSchema } from "../../../domain/schemas/prepaid.ts";
import { ApiError, errorText } from "../../lib/api-client.ts";
import { randomKey } from "../../lib/random-key.ts";
import { useForm } from "../../lib/use-form.ts";
import { EmailField, Field } from "../ui/field.tsx";
import { Form } from "../ui/form.tsx";
import { Notice } from "../ui/notice.tsx";
import { Section } from "../ui/section.tsx";
import { labelOptions, SelectField } from "../ui/select-field.tsx";
import { Button } from "../ui/button.tsx";
import { cancelPrepaidEntry, prepaidKeys, sellPrepaid, useProductsForSale } from "./prepaid-api.ts";

/**
 * /manager: a bundle or a gift card paid at the till (ADR 0049). To the customer whose code staff read, or offered
 * to an e-mail address (the person gets a code to claim it). Nothing is paid online: staff record how it was paid.
 */
export function PrepaidSale({ shopId }: { shopId: string }) {
  const products = useProductsForSale(shopId);
  const queryClient = useQueryClient();
  const [result, setResult] = useState<string | null>(null);
  // The sale just recorded, while it may be taken back (the wrong product, a customer who changed their mind).
  const [last, setLast] = useState<{ entryId: number; priceLabel: string } | null>(null);
  const takeBack = useMutation({
    mutationFn: (entryId: number) => cancelPrepaidEntry(shopId, entryId),
    onSuccess: () => {
      setResult(`Vente annulée : rendez ${last?.priceLabel ?? "le paiement"} au client en caisse.`);
      setLast(null);
      void queryClient.invalidateQueries({ queryKey: prepaidKeys.shop(shopId) });
    },
  });
  // One key per sale, kept through retries after a network failure (one tap never sells twice).
  const key = useRef<string | null>(null);
  const form = useForm(
    prepaidSaleSchema,
    async (values) => {
      setResult(null);
      setLast(null);
      takeBack.reset();
      try {
        const sale = await sellPrepaid(shopId, {
          productId: values.productId,
          paymentMethod: values.paymentMethod,
          customerCode: values.customerCode ?? "",
          giftEmail: values.giftEmail ?? "",
          idempotencyKey: values.idempotencyKey,
        });
        key.current = null;
        setLast(sale.entryId === null ? null : { entryId: sale.entryId, priceLabel: sale.priceLabel });
        setResult(
          sale.holding.holder
            ? `Vendu à ${sale.holding.holder} : ${sale.holding.title} (${sale.holding.balanceLabel}), valable jusqu'au ${sale.holding.lastDay} inclus. Payé : ${sale.paymentLabel}.`
            : `Carte offerte : un e-mail avec son code part à ${sale.holding.waitingFor}. Valable jusqu'au ${sale.holding.lastDay} inclus. Payé : ${sale.paymentLabel}.`,
        );
        void queryClient.invalidateQueries({ queryKey: prepaidKeys.shop(shopId) });
      } catch (error) {
        if (error instanceof ApiError && error.status !== 0) key.current = null;
        throw error;
      }
    },
    (data) => {
      key.current ??= randomKey();
      return {
        productId: String(data.get("productId") ?? ""),
        paymentMethod: String(data.get("paymentMethod") ?? ""),
        customerCode: String(data.get("customerCode") ?? ""),
        giftEmail: String(data.get("giftEmail") ?? ""),
        idempotencyKey: key.current,
      };
    },
  );
  if (!products.data || products.data.length === 0) return null;
  return (
    <Section
      title="Vendre un carnet ou une carte cadeau"
      lead="Encaissez en caisse, puis enregistrez la vente : le client la retrouve dans l'app, avec sa date de fin."
    >
      <Form form={form} className="flex flex-col gap-3" submit="Enregistrer la vente">
        {result ? <Notice tone={takeBack.isSuccess ? "info" : "success"}>{result}</Notice> : null}
        {last ? (
          <Button variant="secondary" isLoading={takeBack.isPending} onClick={() => takeBack.mutate(last.entryId)}>
            Annuler cette vente
          </Button>
        ) : null}
        {takeBack.isError ? <Notice tone="error">{errorText(takeBack.error)}</Notice> : null}
        <SelectField label="Produit" name="productId" error={form.fieldErrors.productId}>
          {products.data.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title} — {p.priceLabel}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Payé par"
          name="paymentMethod"
          error={form.fieldErrors.paymentMethod}
          options={labelOptions(PAYMENT_METHODS, PAYMENT_METHOD_LABELS_FR)}
        />
        <Field
          label="Code client"
          name="customerCode"
          autoComplete="off"
          autoCapitalize="characters"
          placeholder="ABCD-EF23"
          hint="Dans l'app du client : Mes cartes › Ma carte client."
          error={form.fieldErrors.customerCode}
        />
        <EmailField
          label="Ou l'offrir : e-mail du bénéficiaire"
          name="giftEmail"
          autoComplete="off"
          error={form.fieldErrors.giftEmail}
        />
      </Form>
    </Section>
  );
}

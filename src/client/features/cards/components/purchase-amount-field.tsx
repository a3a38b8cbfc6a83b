import type { ComponentProps } from "react";
import { Field } from "../../../components/ui/field.tsx";

/** The amount of a purchase in euros (« 12,50 »), as the counter and the tablet ask for it: the decimal keypad. */
export function PurchaseAmountField(props: Omit<ComponentProps<typeof Field>, "label" | "name">) {
  return (
    <Field
      label="Montant des achats (€)"
      name="amountCents"
      inputMode="decimal"
      autoComplete="off"
      placeholder="12,50"
      {...props}
    />
  );
}

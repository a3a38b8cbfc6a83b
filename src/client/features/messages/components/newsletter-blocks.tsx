import { useState } from "react";
import { formatAmount } from "../../../../domain/format.ts";
import {
  BLOCK_LABELS_FR,
  BLOCK_TYPES,
  type Block,
  type BlockType,
} from "../../../../domain/messages/newsletter-blocks.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { labelOptions, SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import type { EditorContext } from "../api/newsletter.ts";

/** A block being edited: its fields as typed (validated by the server), and a stable key for React. */
export type DraftBlock = Block & { key: number };

let nextKey = 1;
export function newBlock(type: BlockType, rewards: EditorContext["rewards"]): DraftBlock {
  const key = nextKey++;
  switch (type) {
    case "title":
      return { key, type, text: "" };
    case "text":
      return { key, type, text: "" };
    case "image":
      return { key, type, url: "", alt: "" };
    case "button":
      return { key, type, label: "", url: "" };
    case "reward":
      return { key, type, rewardId: rewards[0]?.id ?? "" };
    case "points":
      return { key, type };
  }
}

function BlockFields({
  block,
  index,
  onChange,
  context,
  errors,
}: {
  block: DraftBlock;
  index: number;
  onChange: (block: DraftBlock) => void;
  context: EditorContext;
  errors: Record<string, string>;
}) {
  const err = (field: string) => errors[`blocks.${index}.${field}`];
  switch (block.type) {
    case "title":
      return (
        <Field
          label="Titre"
          value={block.text}
          maxLength={150}
          onChange={(e) => onChange({ ...block, text: e.target.value })}
          error={err("text")}
        />
      );
    case "text":
      return (
        <TextareaField
          label="Texte"
          value={block.text}
          maxLength={3000}
          onChange={(e) => onChange({ ...block, text: e.target.value })}
          error={err("text")}
        />
      );
    case "image":
      return (
        <>
          <Field
            label="Adresse de l'image"
            hint="Une image en ligne, commençant par https://. Hébergée hors de Fidèle, l'e-mail en donne le lien : rien ne se charge ailleurs à l'ouverture."
            inputMode="url"
            value={block.url}
            onChange={(e) => onChange({ ...block, url: e.target.value })}
            error={err("url")}
          />
          <Field
            label="Description de l'image"
            hint="Lue à ceux qui ne voient pas l'image"
            value={block.alt}
            maxLength={200}
            onChange={(e) => onChange({ ...block, alt: e.target.value })}
            error={err("alt")}
          />
        </>
      );
    case "button":
      return (
        <>
          <Field
            label="Texte du bouton"
            value={block.label}
            maxLength={60}
            onChange={(e) => onChange({ ...block, label: e.target.value })}
            error={err("label")}
          />
          <Field
            label="Lien du bouton"
            hint="https://… ou une page de Fidèle (/boutiques)"
            inputMode="url"
            value={block.url}
            onChange={(e) => onChange({ ...block, url: e.target.value })}
            error={err("url")}
          />
        </>
      );
    case "reward":
      return context.rewards.length === 0 ? (
        <p className="text-sm">Votre boutique ne propose encore aucune récompense active.</p>
      ) : (
        <SelectField
          label="Récompense"
          value={block.rewardId}
          onChange={(e) => onChange({ ...block, rewardId: e.target.value })}
          error={err("rewardId")}
        >
          {context.rewards.map((r) => (
            <option key={r.id} value={r.id}>
              {`${r.title} (${formatAmount(context.mode, r.cost)})`}
            </option>
          ))}
        </SelectField>
      );
    case "points":
      return (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Le solde de chaque client sur sa carte, et sa prochaine récompense.
        </p>
      );
  }
}

/** The content blocks: edit, move, remove, add. */
export function BlockList({
  blocks,
  setBlocks,
  context,
  errors,
}: {
  blocks: DraftBlock[];
  setBlocks: (blocks: DraftBlock[]) => void;
  context: EditorContext;
  errors: Record<string, string>;
}) {
  const [adding, setAdding] = useState<BlockType>("text");
  const move = (from: number, to: number) => {
    const next = [...blocks];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    setBlocks(next);
  };
  return (
    <div className="flex flex-col gap-3">
      <ol className="flex flex-col gap-3" aria-label="Blocs de l'e-mail">
        {blocks.map((block, index) => (
          <li
            key={block.key}
            className="flex flex-col gap-3 rounded-xl border border-stone-200 p-3 dark:border-stone-800"
            data-testid="newsletter-block"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-semibold">{`${index + 1}. ${BLOCK_LABELS_FR[block.type]}`}</h3>
              <div className="flex gap-1">
                <Button
                  variant="ghost"
                  className="min-h-10 px-3"
                  aria-label={`Monter le bloc ${index + 1}`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  ↑
                </Button>
                <Button
                  variant="ghost"
                  className="min-h-10 px-3"
                  aria-label={`Descendre le bloc ${index + 1}`}
                  disabled={index === blocks.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  ↓
                </Button>
                <Button
                  variant="ghost"
                  className="min-h-10 px-3"
                  aria-label={`Supprimer le bloc ${index + 1}`}
                  onClick={() => setBlocks(blocks.filter((b) => b.key !== block.key))}
                >
                  ✕
                </Button>
              </div>
            </div>
            <BlockFields
              block={block}
              index={index}
              context={context}
              errors={errors}
              onChange={(changed) => setBlocks(blocks.map((b) => (b.key === block.key ? changed : b)))}
            />
          </li>
        ))}
      </ol>
      {errors.blocks ? <p className="text-sm font-medium text-red-700 dark:text-red-400">{errors.blocks}</p> : null}
      <div className="flex flex-wrap items-end gap-2">
        <SelectField
          label="Nouveau bloc"
          className="min-w-0 flex-1"
          value={adding}
          onValue={(v) => setAdding(v as BlockType)}
          options={labelOptions(BLOCK_TYPES, BLOCK_LABELS_FR)}
        />
        <Button
          variant="secondary"
          disabled={blocks.length >= 30}
          onClick={() => setBlocks([...blocks, newBlock(adding, context.rewards)])}
        >
          Ajouter le bloc
        </Button>
      </div>
    </div>
  );
}

// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SendControls } from "./send-controls.tsx";

const buttons = () => screen.queryAllByRole("button").map((b) => b.textContent);

describe("SendControls: what can be done to a send, messages and newsletters alike", () => {
  afterEach(cleanup);

  it.each([
    ["sending", ["Mettre en pause"]],
    ["paused", ["Reprendre l'envoi", "Annuler l'envoi"]],
    ["scheduled", ["Annuler l'envoi"]],
    ["sent", []],
    ["cancelled", []],
  ])("%s: %j", (status, expected) => {
    render(<SendControls status={status} pending={false} error={null} onAction={() => undefined} />);
    expect(buttons()).toEqual(expected);
  });

  it("says which action was asked for, and shows a refusal", () => {
    const onAction = vi.fn();
    render(
      <SendControls status="paused" pending={false} error={new Error("Envoi déjà terminé.")} onAction={onAction} />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Reprendre l'envoi" }));
    fireEvent.click(screen.getByRole("button", { name: "Annuler l'envoi" }));
    expect(onAction.mock.calls).toEqual([["resume"], ["cancel"]]);
    expect(screen.getByText("Envoi déjà terminé.")).toBeTruthy();
  });
});

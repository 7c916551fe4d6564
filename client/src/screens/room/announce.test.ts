import { describe, expect, it } from "vitest";
import { makeTranslator } from "../../i18n";
import type { RoomState, AppliedEvent } from "../../net";
import { announceEvent, type AnnounceContext } from "./announce";

const tr = makeTranslator("en");
const people: AnnounceContext["people"] = [
  { name: "You", letter: "Y", colour: "gold", gender: "you" },
  { name: "Computer", letter: "C", colour: "coral", gender: "neuter" },
];
const ctx: AnnounceContext = { tr, people, mySeat: 0, mode: "computer", game: "boxes" };

function state(scores: [number, number]): RoomState {
  return { scores } as unknown as RoomState;
}

function move(seat: 0 | 1, line: [[number, number], [number, number]]): AppliedEvent {
  return { version: 5, event: { kind: "move", seat, move: { line } } } as AppliedEvent;
}

describe("announcements", () => {
  it("says the other side's line, and the boxes it closed", () => {
    expect(announceEvent(move(1, [[0, 0], [1, 0]]), state([0, 0]), state([0, 0]), ctx)).toBe("Computer drew the line from a1 to b1.");
    expect(announceEvent(move(1, [[0, 1], [1, 1]]), state([0, 0]), state([0, 2]), ctx)).toBe(
      "Computer drew the line from a2 to b2. Computer: 2 boxes closed.",
    );
  });

  it("keeps quiet about my own line unless it closed a box", () => {
    expect(announceEvent(move(0, [[0, 0], [1, 0]]), state([0, 0]), state([0, 0]), ctx)).toBeNull();
    expect(announceEvent(move(0, [[0, 0], [1, 0]]), state([0, 0]), state([1, 0]), ctx)).toBe("You: one box closed.");
  });

  it("tells Dots captures, offers and the end by agreement", () => {
    const dots: AnnounceContext = { ...ctx, game: "dots", mode: "live", people: [people[0], { name: "Friend", letter: "2", colour: "pencil", gender: "neuter" }] };
    const placed = { version: 3, event: { kind: "move", seat: 1, move: { point: [4, 5] } } } as AppliedEvent;
    expect(announceEvent(placed, state([0, 0]), state([0, 3]), dots)).toBe("Friend put a mark on point e6. Friend: 3 marks captured.");
    const offer = { version: 4, event: { kind: "requested", request: "end", seat: 1 } } as AppliedEvent;
    expect(announceEvent(offer, null, null, dots)).toBe("Friend offers to end the game here; the score decides.");
    const ended = { version: 5, event: { kind: "ended", reason: "agreement", seat: null } } as AppliedEvent;
    expect(announceEvent(ended, null, null, dots)).toBe("Ended by agreement.");
  });

  it("says moves and results in Russian and Czech with the words agreeing", () => {
    const drew = move(1, [[3, 4], [3, 5]]);
    const ru = makeTranslator("ru");
    const ruPeople: AnnounceContext["people"] = [
      { name: "Вы", letter: "В", colour: "золотые", gender: "you" },
      { name: "Компьютер", letter: "К", colour: "коралловые", gender: "masculine" },
    ];
    const ruCtx: AnnounceContext = { ...ctx, tr: ru, people: ruPeople };
    expect(announceEvent(drew, state([0, 0]), state([0, 2]), ruCtx)).toBe("Компьютер провёл линию от d5 до d6. Компьютер: закрыто 2 квадрата.");
    const pen: AnnounceContext = {
      ...ruCtx,
      game: "dots",
      mySeat: null,
      mode: "live",
      people: [
        { name: "Ручка", letter: "1", colour: "точки ручкой", gender: "feminine" },
        { name: "Карандаш", letter: "2", colour: "крестики карандашом", gender: "masculine" },
      ],
    };
    const placed = { version: 3, event: { kind: "move", seat: 0, move: { point: [2, 7] } } } as AppliedEvent;
    expect(announceEvent(placed, state([0, 0]), state([5, 0]), pen)).toBe("Ручка поставила знак в точку c8. Ручка: в плен взято 5 знаков.");
    const resigned = { version: 9, event: { kind: "ended", reason: "resignation", seat: 0 } } as AppliedEvent;
    expect(announceEvent(resigned, null, null, pen)).toBe("Ручка сдалась.");
    const cs = makeTranslator("cs");
    const csCtx: AnnounceContext = {
      ...ctx,
      tr: cs,
      people: [
        { name: "Vy", letter: "V", colour: "zlatý", gender: "you" },
        { name: "Počítač", letter: "P", colour: "korálový", gender: "masculine" },
      ],
    };
    expect(announceEvent(move(1, [[5, 0], [5, 1]]), state([0, 0]), state([0, 1]), csCtx)).toBe("Počítač nakreslil čáru z f1 do f2. Počítač: uzavřen 1 čtvereček.");
  });
});

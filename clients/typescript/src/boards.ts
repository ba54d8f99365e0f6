// Boards by reference (README "Boards by reference and lean answers"): a state's board
// (its static part: a ruleset's BOARD_FIELDS) is named by "sha256:" and the hex SHA-256
// of its canonical JSON, so after the service has it once a state sends some seventy
// bytes in its place. The service may drop a board at any time; a state naming one it
// lacks gets a board-not-found problem and is sent once more with the board inline.

import { canonicalJson, parseJson } from "./json.js";
import { sha256Hex } from "./sha256.js";
import { BOARD_FIELDS, type RulesetId } from "./generated/operations.js";

type State = Record<string, unknown>;

/** The id the service gives a board: `board` is the object of a ruleset's board fields
 * (as `boardOf` takes them from a state). */
export function boardId(board: Record<string, unknown>): string {
  return "sha256:" + sha256Hex(canonicalJson(board));
}

/** The board of a state (its board fields that it carries), or null when it carries none. */
export function boardOf(ruleset: RulesetId, state: State): Record<string, unknown> | null {
  const board: Record<string, unknown> = {};
  let any = false;
  for (const field of BOARD_FIELDS[ruleset]) {
    if (state[field] !== undefined) {
      board[field] = state[field];
      any = true;
    }
  }
  return any ? board : null;
}

/** How one request's state goes out, and how to send it again with its board inline. */
export interface PreparedState {
  state: State;
  boardId: string | null;
  /** The state with its board inline and its id (which stores the board), or null when
   * this client does not know the board. */
  inline: State | null;
}

/** The boards this client has seen (a bounded map, least recently used dropped first) and
 * which of them the service has confirmed. Shared by every ruleset of one client. */
export class BoardMemory {
  // Each board as its canonical JSON: a copy the caller cannot change under its id.
  private readonly boards = new Map<string, string>();
  private readonly stored = new Set<string>();

  constructor(private readonly capacity = 32) {}

  /** The id of `state`'s board, remembering the board; null when it carries none. */
  id(ruleset: RulesetId, state: State): string | null {
    const board = boardOf(ruleset, state);
    if (board === null) return null;
    // Hashed every time, never cached by object: a board edited in place (a tile laid)
    // must get its new id, or the service would judge the state on the old board.
    const text = canonicalJson(board);
    const id = "sha256:" + sha256Hex(text);
    this.remember(ruleset, id, text);
    return id;
  }

  /** The state with its board fields filled in from memory (a resulting state the service
   * sent back by reference, say), or the state itself when its board is not known. */
  whole<S extends State>(ruleset: RulesetId, state: S): S {
    const id = state["board"];
    const text = typeof id === "string" ? this.boards.get(`${ruleset} ${id}`) : undefined;
    if (text === undefined || boardOf(ruleset, state) !== null) return state;
    const { board: _, ...rest } = state;
    return { ...rest, ...(parseJson(text) as State) } as unknown as S;
  }

  /** How to send `state` to `ruleset`: by reference when `reference` is on (with the
   * board too until the service has confirmed it), else as it is. */
  prepare(ruleset: RulesetId, state: State, reference: boolean): PreparedState {
    const named = typeof state["board"] === "string" ? (state["board"] as string) : null;
    const carried = boardOf(ruleset, state) !== null;
    if (!carried) {
      if (named === null) return { state, boardId: null, inline: null };
      const whole = this.whole(ruleset, state);
      return { state, boardId: named, inline: whole === state ? null : { ...whole, board: named } };
    }
    if (!reference && named === null) return { state, boardId: null, inline: null };
    const id = this.id(ruleset, state) as string;
    const inline = { ...state, board: id };
    if (!this.stored.has(`${ruleset} ${id}`)) return { state: inline, boardId: id, inline: null };
    const lean: State = { ...state, board: id };
    for (const field of BOARD_FIELDS[ruleset]) delete lean[field];
    return { state: lean, boardId: id, inline };
  }

  /** The service has the board (it answered a request that carried or named it). */
  confirm(ruleset: RulesetId, id: string): void {
    this.stored.add(`${ruleset} ${id}`);
  }

  /** The service said it does not have the board. */
  dropped(ruleset: RulesetId, id: string): void {
    this.stored.delete(`${ruleset} ${id}`);
  }

  private remember(ruleset: RulesetId, id: string, text: string): void {
    const key = `${ruleset} ${id}`;
    this.boards.delete(key);
    this.boards.set(key, text);
    while (this.boards.size > this.capacity) {
      const oldest = this.boards.keys().next().value as string;
      this.boards.delete(oldest);
      this.stored.delete(oldest);
    }
  }
}

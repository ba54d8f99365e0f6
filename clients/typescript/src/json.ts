// JSON as the service reads and writes it, three ways JSON.parse and JSON.stringify fall
// short of:
//
// - Integers past 2^53. A digital-mode seed (`rng`) is a 64-bit integer the service draws;
//   JSON.parse would round it, and the next request would roll other dice (or fail its
//   signature). `parseJson` keeps every integer it cannot hold exactly as a `bigint`, and
//   `toJson` writes a `bigint` back as its digits.
// - The id of a board: the SHA-256 of the JSON the service's orjson writes for the board it
//   received (`orjson.dumps(board, option=OPT_SORT_KEYS)`, engine/boards.py). `canonicalJson`
//   writes those bytes: keys sorted by code point at every level, no whitespace, strings
//   escaped as JSON.stringify escapes them (orjson escapes the same characters the same
//   way), and numbers as orjson writes the value it parsed from what this client sent.

/** A JSON value as this client reads it: numbers past 2^53 come as `bigint`. */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

// orjson reads an integer literal in [-2^63, 2^64) as an int, any other as a float.
const INT_MIN = -(BigInt(2) ** BigInt(63));
const INT_END = BigInt(2) ** BigInt(64);

/** JSON.stringify's answer for `value` (toJSON, undefined and functions left out), with a
 * `bigint` written as its digits; keys in their own order, or sorted for `canonicalJson`. */
function write(value: unknown, sort: boolean, number: (n: number) => string): string | undefined {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? number(value) : "null";
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) {
        return "[" + value.map((item) => write(item, sort, number) ?? "null").join(",") + "]";
      }
      return writeObject(value as Record<string, unknown>, sort, number);
    default:
      return undefined; // undefined, a function, a symbol: left out, as JSON.stringify does
  }
}

function writeObject(value: Record<string, unknown>, sort: boolean, number: (n: number) => string): string {
  const keys = Object.keys(value);
  if (sort) keys.sort(byCodePoint);
  const parts: string[] = [];
  for (const key of keys) {
    const item = write(value[key], sort, number);
    if (item !== undefined) parts.push(JSON.stringify(key) + ":" + item);
  }
  return "{" + parts.join(",") + "}";
}

/** Code point order (orjson sorts keys as Rust sorts strings: by their UTF-8 bytes, which
 * is code point order). JavaScript's own `<` compares UTF-16 units, which puts a character
 * past U+FFFF before U+E000..U+FFFF. */
export function byCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** The JSON text of a request body: JSON.stringify's, with `bigint`s as digits. */
export function toJson(value: unknown): string {
  return write(value, false, (n) => JSON.stringify(n)) ?? "null";
}

/** The bytes orjson writes for the value it reads from `toJson(value)`, as a string. */
export function canonicalJson(value: unknown): string {
  return write(value, true, orjsonNumber) ?? "null";
}

/** How orjson writes the number it parses from JSON.stringify's text for `n`: an integer
 * literal it can hold as an int stays as written; anything else is a float, written as
 * Python's repr writes it but with the exponent unpadded (`1e-7`, `1e+16`, `0.00001`,
 * `100.0`). JavaScript's shortest round-trip digits are the same digits. */
export function orjsonNumber(n: number): string {
  const sent = JSON.stringify(n);
  // The literal decides, not the double: JSON.stringify(-(2 ** 63)) is
  // "-9223372036854776000", past the int range though the double is in it.
  if (/^-?\d+$/.test(sent) && BigInt(sent) >= INT_MIN && BigInt(sent) < INT_END) return sent;
  const [mantissa, exponentText] = Math.abs(n).toExponential().split("e");
  const digits = (mantissa as string).replace(".", "");
  const exponent = Number(exponentText);
  const sign = n < 0 ? "-" : "";
  if (exponent < -5 || exponent >= 16) {
    const fraction = digits.length > 1 ? "." + digits.slice(1) : "";
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
}

/** JSON.parse, but an integer literal past Number.MAX_SAFE_INTEGER comes back as a
 * `bigint` (its exact value) rather than the nearest double. Text without a long digit run
 * takes JSON.parse itself. */
export function parseJson(text: string): Json {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as Json;
  const parser = new Parser(text);
  const value = parser.value();
  parser.end();
  return value;
}

/** A strict JSON parser (RFC 8259), for the rare answer that holds a long integer. Strings
 * are handed to JSON.parse, which knows the escapes. */
class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  value(): Json {
    this.space();
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    throw this.error();
  }

  end(): void {
    this.space();
    if (this.at !== this.text.length) throw this.error();
  }

  private object(): Json {
    const out: { [key: string]: Json } = {};
    this.at++;
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') throw this.error();
      const key = this.string();
      this.expect(":");
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      if (this.separator("}")) return out;
    }
  }

  private array(): Json {
    const out: Json[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === "]") {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      if (this.separator("]")) return out;
    }
  }

  /** After an item: true at the closing bracket, false at a comma. */
  private separator(close: string): boolean {
    this.space();
    const c = this.text[this.at++];
    if (c === close) return true;
    if (c !== ",") throw this.error(-1);
    return false;
  }

  private string(): string {
    const start = this.at++;
    for (;;) {
      const c = this.text[this.at++];
      if (c === undefined) throw this.error();
      if (c === "\\") this.at++;
      else if (c === '"') return JSON.parse(this.text.slice(start, this.at)) as string;
    }
  }

  private number(): number | bigint {
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (!match) throw this.error();
    this.at += match[0].length;
    const n = Number(match[0]);
    if (match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(n)) return BigInt(match[0]);
    return n;
  }

  private expect(c: string): void {
    this.space();
    if (this.text[this.at] !== c) throw this.error();
    this.at++;
  }

  private space(): void {
    while (/[ \t\n\r]/.test(this.text[this.at] ?? "")) this.at++;
  }

  private error(shift = 0): SyntaxError {
    return new SyntaxError(`not JSON at position ${this.at + shift}`);
  }
}

// Exact numbers on the page.  The engine sends every int beyond 2^53 - 1 as its decimal string
// (pyapp/web/wire.py), because a JavaScript Number keeps only ~16 digits: the English central
// game's 40,861,647,040,079,968 solutions would show as ...079,970.  formatCount groups the
// digits of a string, BigInt or Number without ever passing through a double, so every count
// the page shows or copies is the engine's own.

const GROUPS = /\B(?=(\d{3})+(?!\d))/g;

/** A count with thousands separators ("40,861,647,040,079,968"); "-" for null or undefined. */
export function formatCount(n) {
  if (n === null || n === undefined) return "-";
  if (typeof n === "number" && !Number.isInteger(n)) return n.toLocaleString("en-US");
  const text = String(n); // a BigInt or a string keeps every digit; a safe-integer Number too
  if (!/^-?\d+$/.test(text)) return text;
  return text[0] === "-" ? `-${text.slice(1).replace(GROUPS, ",")}` : text.replace(GROUPS, ",");
}

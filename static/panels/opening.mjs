// The never-lose answers at the start of every catalogue board's default game and after each first jump,
// decided when the site was built (opening.json, written by build.py from pyapp/web/opening.py): read the
// first time never-lose is switched on (never on the start-up path), so the first verdicts show before the
// engine is ready.  Each
// answer is the engine's own never_lose JSON with method "book" and `proof` naming what decided it
// ("exact": the game's winnable set; "search": the solver and its proofs).

let book = null;

function readBook() {
  book ??= fetch(new URL("opening.json", document.baseURI))
    .then((r) => (r.ok ? r.json() : null))
    .then((b) => (b && b.format === 1 ? b.games : null))
    .catch(() => null);
  return book;
}

/** The book's answer for `game` (the store's game slice) when it stands at the start of its board's
 *  default game or one jump after it, else null. */
export async function bookAnswer(game) {
  if (!game || game.position || game.jumps.length > 1) return null;
  const entry = (await readBook())?.[game.board];
  if (!entry) return null;
  if ((game.start ?? entry.start) !== entry.start || (game.goal ?? entry.goal) !== entry.goal) return null;
  const [first] = game.jumps;
  return first ? entry.after?.[`${first[0]}-${first[2]}`] ?? null : entry.result;
}

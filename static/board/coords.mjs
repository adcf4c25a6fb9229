// Coordinates on the board: pyapp.core.render draws them (`text.coord`: column letters and row
// numbers on square boards, hole numbers on triangles); the "Coordinates" toggle button hides
// or shows them with one class on the board holder, and the choice is remembered.

const KEY = "peg-lab-coordinates";

function remembered() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true; // storage may be disabled: coordinates stay on
  }
}

/** Wire the toggle `button` (aria-pressed) to the board `holder`. */
export function attachCoordinates(button, holder) {
  const apply = (on) => {
    button.setAttribute("aria-pressed", String(on));
    holder.classList.toggle("hide-coords", !on);
  };
  apply(remembered());
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    apply(on);
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      // not remembered: fine
    }
  });
}

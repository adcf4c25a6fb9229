// Input: click or tap a peg then a target, drag a peg onto a target, keyboard focus ring
// (arrows, Enter/Space) and the global undo/redo keys.  It only reports intentions to the
// controller: activate(name), canDrag(name), drop(from, to), undo(), redo().

const DRAG_THRESHOLD = 8; // px before a press becomes a drag

const isTyping = (el) => el && (el.closest?.("input, textarea, select, [contenteditable]") !== null);

export function attachInput(holder, view, controller) {
  let press = null; // {id, name, x0, y0, dragging}

  holder.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !view.svg || controller.editing()) return;
    const el = event.target.closest?.("[data-hole]");
    const name = el ? el.dataset.hole : view.holeAt(event.clientX, event.clientY);
    if (!name) return;
    press = { id: event.pointerId, name, x0: event.clientX, y0: event.clientY, dragging: false,
              draggable: controller.canDrag(name) };
    holder.setPointerCapture?.(event.pointerId);
    event.preventDefault();
  });

  holder.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id || !press.draggable) return;
    const dx = event.clientX - press.x0;
    const dy = event.clientY - press.y0;
    if (!press.dragging && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!press.dragging) {
      press.dragging = true;
      controller.select(press.name);
      view.holes.get(press.name)?.el.classList.add("dragging");
    }
    const [ux, uy] = view.toUserDelta(dx, dy);
    const pin = view.holes.get(press.name)?.pin;
    if (pin) pin.style.transform = `translate(${ux}px, ${uy}px)`;
  });

  const release = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const p = press;
    press = null;
    const hole = view.holes.get(p.name);
    if (hole?.pin) hole.pin.style.transform = "";
    hole?.el.classList.remove("dragging");
    if (cancelled) return;
    if (p.dragging) {
      const target = view.holeAt(event.clientX, event.clientY);
      controller.drop(p.name, target);
    } else {
      view.setFocus(p.name);
      controller.activate(p.name);
    }
  };
  holder.addEventListener("pointerup", (event) => release(event, false));
  holder.addEventListener("pointercancel", (event) => release(event, true));

  holder.addEventListener("focusin", (event) => {
    if (event.target === view.svg && !view.focusName) {
      view.setFocus(controller.preferredFocus() || view.holes.keys().next().value);
    }
  });

  holder.addEventListener("keydown", (event) => {
    if (!view.svg || event.target !== view.svg) return;
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key in dirs) {
      event.preventDefault();
      const [dx, dy] = dirs[event.key];
      const name = view.moveFocus(dx, dy);
      if (name) controller.announceFocus(name);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (view.focusName) controller.activate(view.focusName);
    } else if (event.key === "Escape") {
      controller.select(null);
    }
  });

  document.addEventListener("keydown", (event) => {
    if (isTyping(event.target) || event.altKey || event.metaKey) return;
    const key = event.key.toLowerCase();
    if ((key === "u" && !event.ctrlKey) || (event.ctrlKey && key === "z" && !event.shiftKey)) {
      event.preventDefault();
      controller.undo();
    } else if (event.ctrlKey && (key === "y" || (key === "z" && event.shiftKey))) {
      event.preventDefault();
      controller.redo();
    }
  });
}

// @ts-check
// The profile's challenge form: show only the chosen game's options (without JavaScript every
// game's options show; the server reads only the chosen game's, named "<game>:opt_<name>").
const form = document.getElementById("challenge-form");
const game = /** @type {HTMLSelectElement | null} */ (document.getElementById("challenge-game"));

function showOptions() {
  if (!form || !game) return;
  for (const fieldset of /** @type {NodeListOf<HTMLFieldSetElement>} */ (form.querySelectorAll(".challenge-options"))) {
    const shown = fieldset.dataset.game === game.value;
    fieldset.hidden = !shown;
    fieldset.disabled = !shown;
  }
}

if (form && game) {
  game.addEventListener("change", showOptions);
  showOptions();
}

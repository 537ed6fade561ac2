// A round's cover as TuneTrivia shows it, on the phones, the host's page and the big screen:
// before the reveal, the real cover shrunk to a few pixels and blurred (served by round, so it
// names no song) over a gradient; at the reveal, the real cover sharpens into view once, and
// later redraws show it still.
import { el } from "/static/js/api.js";

export class CoverArt {
  /**
   * @param {{art: string, hidden: string, blur: string}} classes the real cover's, the hidden
   *   one's (the gradient) and the blurred picture's inside it
   */
  constructor(classes) {
    this.classes = classes;
    /** @type {string | null | undefined} the round whose cover has sharpened into view */
    this.revealed = null;
  }

  /**
   * @param {{id?: string, is_revealed?: boolean, album?: string, title?: string, round_number?: number} | null | undefined} round
   *   the round as the page has it
   * @param {{artwork?: string | null, blurred?: string | null, id?: string}} sources the real
   *   cover (used once revealed) and the tiny one (used before); `id` names the picture
   */
  draw(round, { artwork = null, blurred = null, id = undefined }) {
    if (artwork && round?.is_revealed) {
      const img = el("img", { class: this.classes.art, id, src: artwork, alt: `Cover of ${round.album || round.title}` });
      img.addEventListener("error", () => img.replaceWith(this.placeholder(round)));
      if (this.revealed !== round.id) {
        this.revealed = round.id;
        img.classList.add("revealing");
        requestAnimationFrame(() => requestAnimationFrame(() => img.classList.remove("revealing")));
      }
      return img;
    }
    const hidden = this.placeholder(round);
    if (blurred) {
      const img = el("img", { class: this.classes.blur, id: id ? `${id}-blur` : undefined, src: blurred, alt: "" });
      img.addEventListener("error", () => img.remove());
      hidden.append(img);
    }
    return hidden;
  }

  /**
   * A gradient of the round's own colour, where no picture is (yet).
   * @param {{round_number?: number} | null | undefined} round
   */
  placeholder(round) {
    const div = el("div", { class: this.classes.hidden, role: "img", "aria-label": "Hidden cover" });
    div.style.setProperty("--hue", String(((round?.round_number || 1) * 67) % 360)); // CSSOM, which the page's CSP allows
    return div;
  }
}

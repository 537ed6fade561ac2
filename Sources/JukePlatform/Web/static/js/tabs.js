// Tabs as WAI-ARIA describes them: one tab in the page's tab order (the selected one), the
// arrow keys move between tabs and select as they go, Home and End jump to the ends, and
// the panel is labelled by the selected tab. `nextTab` is the pure part (node --test).

/**
 * The tab a key moves to from `current` among `count` tabs, or null for other keys.
 * @param {string} key KeyboardEvent.key
 * @param {number} current
 * @param {number} count
 * @returns {number | null}
 */
export function nextTab(key, current, count) {
  if (count <= 0) return null;
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
      return (current + 1) % count;
    case "ArrowLeft":
    case "ArrowUp":
      return (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/**
 * Makes `tabs` behave as one tab list over `panel`; `onSelect` runs for each selection made
 * by click or key. Returns `select(tab)` for selecting one from code (it does not call
 * `onSelect`).
 * @param {HTMLElement[]} tabs
 * @param {HTMLElement | null} panel
 * @param {(tab: HTMLElement) => void} onSelect
 */
export function bindTabs(tabs, panel, onSelect) {
  /** @param {HTMLElement | null} chosen */
  const select = (chosen) => {
    for (const tab of tabs) {
      const selected = tab === chosen;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected || (chosen === null && tab === tabs[0]) ? 0 : -1;
      if (panel) tab.setAttribute("aria-controls", panel.id);
    }
    if (panel && chosen) panel.setAttribute("aria-labelledby", chosen.id);
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => {
      select(tab);
      onSelect(tab);
    });
    tab.addEventListener("keydown", (event) => {
      const next = nextTab(event.key, index, tabs.length);
      if (next === null) return;
      event.preventDefault();
      tabs[next].focus();
      select(tabs[next]);
      onSelect(tabs[next]);
    });
  });
  select(tabs.find((tab) => tab.getAttribute("aria-selected") === "true") || null);
  return select;
}

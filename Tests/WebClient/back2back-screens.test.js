// Back2Back's home screens: which screen (and tab) each address's fragment opens.
import assert from "node:assert/strict";
import { test } from "node:test";
import { routeFor } from "../../Sources/Back2BackServer/static/js/back2back-screens.js";

test("each tab's fragment opens its screen", () => {
  for (const tab of ["sessions", "personas", "settings"]) assert.deepEqual(routeFor(`#${tab}`), { screen: tab, tab, persona: null });
});

test("a persona's editor is a screen of the Personas tab", () => {
  assert.deepEqual(routeFor("#persona/new"), { screen: "persona", tab: "personas", persona: "new" });
  assert.deepEqual(routeFor("#persona/3f2a"), { screen: "persona", tab: "personas", persona: "3f2a" });
});

test("no fragment, or one naming nothing, is Sessions", () => {
  for (const hash of ["", "#", "#nowhere", "#persona/"]) assert.deepEqual(routeFor(hash), { screen: "sessions", tab: "sessions", persona: null });
});

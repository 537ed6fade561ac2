// The platform's styles and scripts name no app: each app's styles live in its own sheet, and
// what the platform's scripts need of an app (its offline note, the keys of a person's
// things) comes from the app's card, carried by its pages (issue 40).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";

const sources = new URL("../../Sources/", import.meta.url);
const read = (path) => readFileSync(new URL(path, sources), "utf8");

/** Every app's slug and its short forms, as its card declares them (slug: "...") and its selectors and keys spell them. */
const apps = readdirSync(sources).filter((dir) => existsSync(new URL(`${dir}/App/`, sources))).flatMap((dir) =>
  readdirSync(new URL(`${dir}/App/`, sources)).flatMap((file) => [...read(`${dir}/App/${file}`).matchAll(/AppCard\(\s*slug: "([^"]+)"/g)].map((m) => m[1])));
const names = [...apps, "trivia", "b2b"];

/** The text without its comments (a comment may say which app a rule was written for). */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

test("the apps are found from their cards", () => {
  assert.deepEqual([...apps].sort(), ["back2back", "dual", "runbeat", "tunetrivia"]);
});

for (const file of ["css/app.css", "css/components.css", "css/tokens.css", "js/pwa.js", "js/api.js"]) {
  test(`the platform's ${file} names no app`, () => {
    const text = code(read(`JukePlatform/Web/static/${file}`)).toLowerCase();
    for (const name of names) assert.equal(text.includes(name), false, `${file} names ${name}`);
  });
}

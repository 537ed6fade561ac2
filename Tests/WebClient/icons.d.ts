// The shape of /static/js/icons.js, which the server generates from Icons.all
// (Sources/JukePlatform/Web/Pages/Icons.swift) instead of serving a file: tsconfig.json maps the
// import here so modules that draw icons type-check. test_design_system.py checks the served module.

/** Every icon's 24×24 path, by name. */
export const ICONS: Readonly<Record<string, string>>;

/** The icon `name` as an <svg> element; aria-hidden unless `label` names it. */
export function icon(name: string, options?: { label?: string; text?: string }): SVGSVGElement;

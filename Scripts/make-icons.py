#!/usr/bin/env python3
"""Renders Juke's icon (static/img/icon.svg) into the PNG sizes browsers ask an installable web
app for, with headless Chromium: 192 and 512 (purpose "any"), a 512 maskable one (the icon inside
the 80% safe zone on the theme's background, so a launcher's round or squircle mask never cuts
the note), and 180 for iOS's home screen. Run it when the SVG changes; the PNGs are committed."""
import base64
import os
import sys

from selenium import webdriver

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMG = os.path.join(ROOT, "Sources", "JukePlatform", "Web", "static", "img")
BACKGROUND = "#0b0d10"


def render(driver, svg, size, maskable):
    inner = int(size * 0.8) if maskable else size
    page = f"""<html><body style="margin:0;background:{BACKGROUND if maskable else 'transparent'};width:{size}px;height:{size}px;
      display:flex;align-items:center;justify-content:center">
      <img style="display:block" src="data:image/svg+xml;base64,{base64.b64encode(svg).decode()}" width="{inner}" height="{inner}"></body></html>"""
    driver.get("data:text/html;base64," + base64.b64encode(page.encode()).decode())
    driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": {"x": 0, "y": 0, "width": size, "height": size, "scale": 1}})
    return base64.b64decode(shot["data"])


def main():
    svg = open(os.path.join(IMG, "icon.svg"), "rb").read()
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=900,900", "--force-device-scale-factor=1"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options)
    try:
        for name, size, maskable in [("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                     ("icon-maskable-512.png", 512, True), ("apple-touch-icon.png", 180, True)]:
            with open(os.path.join(IMG, name), "wb") as f:
                f.write(render(driver, svg, size, maskable))
            print("wrote", name, file=sys.stderr)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()

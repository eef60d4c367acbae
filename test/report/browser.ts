/**
 * Opens generated files in a real headless Chromium (Debian's, via playwright-core) and
 * records what a reader's browser reports: console errors, page errors, network requests.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's Chromium; PLANSPEC_CHROMIUM points elsewhere (or at nothing, to try a machine without it). */
export const CHROMIUM = process.env.PLANSPEC_CHROMIUM || "/usr/bin/chromium";

/**
 * Browser suites are skipped on a machine without Chromium, unless
 * PLANSPEC_BROWSER_TESTS=required (CI), where a missing Chromium fails them.
 * test/report/browser-setup.ts prints the one-line notice.
 */
export const SKIP_BROWSER = process.env.PLANSPEC_BROWSER_TESTS !== "required" && !existsSync(CHROMIUM);

export const SKIP_NOTICE = `browser tests skipped: no Chromium at ${CHROMIUM}; to run them install chromium (apt-get install chromium) and set PLANSPEC_BROWSER_TESTS=required`;

export interface Opened {
  page: Page;
  /** Console messages of type error, and uncaught page errors. */
  errors: string[];
  /** URLs the page requested other than the file itself. */
  requests: string[];
}

export class Browser {
  private constructor(
    private readonly ctx: BrowserContext,
    private readonly profile: string,
  ) {}

  /** Launches Chromium with a fresh profile directory. */
  static async launch(): Promise<Browser> {
    const profile = mkdtempSync(join(tmpdir(), "planspec-chromium-"));
    const ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    return new Browser(ctx, profile);
  }

  /** Opens a local file and waits until it has loaded. */
  async open(file: string): Promise<Opened> {
    const page = await this.ctx.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    const url = `file://${file}`;
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (r) => {
      if (r.url() !== url) requests.push(r.url());
    });
    await page.goto(url, { waitUntil: "load" });
    return { page, errors, requests };
  }

  async close(): Promise<void> {
    await this.ctx.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** A folder for screenshots that outlives the test, so a person can look at them. */
export function screenshotDir(): string {
  const dir = join(tmpdir(), "planspec-report-screenshots");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Screenshot of a page. A standalone SVG document is shot at its own size: Chromium's
 * full-page capture of an SVG document never finishes.
 */
export async function screenshot(page: Page, file: string): Promise<void> {
  const size = await page.evaluate(() => {
    const root = document.documentElement;
    return root.tagName.toLowerCase() === "svg" ? { w: Number(root.getAttribute("width")), h: Number(root.getAttribute("height")) } : null;
  });
  if (size) {
    await page.setViewportSize({ width: Math.min(size.w, 4000), height: Math.min(size.h, 8000) });
    await page.screenshot({ path: file });
  } else {
    await page.screenshot({ path: file, fullPage: true });
  }
}

export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Pairs of boxes that overlap (touching edges do not count). */
export function overlaps(boxes: readonly Box[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5) out.push([a.id, b.id]);
    }
  }
  return out;
}

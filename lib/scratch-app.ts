import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type PortalApp } from './app.ts';

export interface ScratchApp extends PortalApp {
  /** Removes the temporary folder (placeholder web app and cloud assembly). */
  dispose(): void;
}

/**
 * The portal app built in a temporary folder with a placeholder web app, so tests and scripts need no
 * web build. `bundle: false` skips esbuild (CDK's `aws:cdk:bundling-stacks` context, as
 * `cdk synth --exclusively` uses it) for tests that only read templates.
 */
export function scratchApp(
  options: { context?: Record<string, unknown>; bundle?: boolean; nag?: boolean; configDir?: string } = {},
): ScratchApp {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portale-cdk-'));
  const web = path.join(work, 'web');
  mkdirSync(web);
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><html lang="it"><title>placeholder</title></html>');
  const dispose = () => rmSync(work, { recursive: true, force: true });
  try {
    const portal = buildApp({
      webAssetPath: web,
      outdir: path.join(work, 'cdk.out'),
      nag: options.nag,
      configDir: options.configDir,
      context: { ...(options.bundle === false && { 'aws:cdk:bundling-stacks': [] }), ...options.context },
    });
    return { ...portal, dispose };
  } catch (error) {
    // A context the app refuses (the tests check its message) leaves no folder behind.
    dispose();
    throw error;
  }
}

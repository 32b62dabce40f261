import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

type Options = Parameters<typeof scratchApp>[0];

const built = new Map<string, ScratchApp>();

/**
 * The portal app for tests that only read it, built once per worker for each set of options: the infra tier runs
 * with `isolate: false` (vitest.config.ts), so the files of a worker share this module, and CDK caches an app's
 * synthesis, so the templates (and cdk-nag's checks) are made once, not once per file. A test that adds to the app
 * or synthesizes it differently builds its own with `scratchApp`. Its `dispose` does nothing: the folder goes when
 * the worker ends.
 */
export function sharedPortal(options: Options = { bundle: false }): ScratchApp {
  const key = JSON.stringify([
    options.bundle ?? true,
    options.nag ?? true,
    options.configDir ?? null,
    options.context ?? {},
  ]);
  let portal = built.get(key);
  if (!portal) {
    const own = scratchApp(options);
    process.once('exit', () => own.dispose());
    portal = { ...own, dispose: () => {} };
    built.set(key, portal);
  }
  return portal;
}

#!/usr/bin/env node
import { buildApp } from '../lib/app.ts';

// The cloud portal. A stage's settings are its file, config/<stage>.json (`cdk synth -c stage=prod`), described
// in lib/stage-config.ts, lib/context.ts and the README (Deploying to AWS). Every setting has a default, so
// `cdk synth` with no stage builds a development copy with placeholders.
const { app, warnings } = buildApp();
for (const warning of warnings) console.warn(`[WARNING] ${warning}`);
app.synth();

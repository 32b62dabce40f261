#!/usr/bin/env node
import { buildApp } from '../lib/app.ts';

// The cloud portal. Context values (spidGatewayIssuer, webDomainName, ...) are described in
// lib/context.ts and the README (Deploying to AWS); every one has a default, so `cdk synth` needs none.
buildApp().app.synth();

/** The simulator's state: in memory and in <dataDir>/mypay/state.json, result files in <dataDir>/mypay/files. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mypayIuv } from '../mypay-iuv.ts';
import {
  DEFAULT_ENTITY,
  type MyPaySimulatorOptions,
  type SimulatedEntity,
  type State,
  type Switches,
} from './model.ts';
import { token } from './values.ts';

/** What every part of the simulator shares: its address, entities, state, switches and file store. */
export interface SimulatorStore {
  url: string;
  options: MyPaySimulatorOptions;
  /** The entities as configured (a reset puts their tipi dovuto back). */
  configured: SimulatedEntity[];
  /** The entities' own copies: the admin API changes their tipi dovuto. */
  entities: SimulatedEntity[];
  entity(codIpa: string): SimulatedEntity | undefined;
  holdMs: number;
  filesDirectory: string;
  state: State;
  switches: Switches;
  /** Writes state.json (atomically: temp file + rename); calls during a write coalesce into one more. */
  save(): Promise<void>;
  /** The write under way, if any. */
  saving(): Promise<void> | null;
  /** Empties the state (positions, imports, sessions, exports, files). */
  resetState(): void;
  positionKey(codIpa: string, iud: string): string;
  newIuv(e: SimulatedEntity): string;
  /** Keeps a result file and answers its download URL. */
  storeFile(name: string, bytes: Uint8Array): string;
}

export function createStore(options: MyPaySimulatorOptions): SimulatorStore {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;
  // The entities' own copies: the admin API changes their tipi dovuto, a reset puts them back.
  const configured = options.entities ?? [DEFAULT_ENTITY];
  const entities = configured.map((e) => ({ ...e, tipiDovuto: { ...e.tipiDovuto } }));
  const entity = (codIpa: string) => entities.find((e) => e.codIpa === codIpa);
  const holdMs = options.holdMs ?? 60_000;
  const directory = path.join(options.dataDir, 'mypay');
  const filesDirectory = path.join(directory, 'files');
  fs.mkdirSync(filesDirectory, { recursive: true });
  const stateFile = path.join(directory, 'state.json');

  const empty = (): State => ({
    nextIuv: {},
    positions: {},
    imports: {},
    authorizations: {},
    sessions: {},
    exports: {},
    downloads: {},
    fileNames: {},
    baskets: {},
    basketOfSession: {},
  });
  const state: State = fs.existsSync(stateFile)
    ? { ...empty(), ...JSON.parse(fs.readFileSync(stateFile, 'utf8')) }
    : empty();
  const switches: Switches = {
    faults: [],
    importMode: null,
    reject: { iuds: [], count: 0 },
    reuseToken: 0,
    holdReceipts: false,
  };

  let saving: Promise<void> | null = null;
  let dirty = false;
  /** Writes state.json (atomically: temp file + rename); calls during a write coalesce into one more. */
  const save = async () => {
    dirty = true;
    if (saving) return saving;
    saving = (async () => {
      while (dirty) {
        dirty = false;
        const temp = `${stateFile}.${process.pid}.tmp`;
        await fs.promises.writeFile(temp, JSON.stringify(state));
        await fs.promises.rename(temp, stateFile);
      }
    })().finally(() => (saving = null));
    return saving;
  };

  const positionKey = (codIpa: string, iud: string) => `${codIpa}|${iud}`;
  const newIuv = (e: SimulatedEntity) => {
    const next = (state.nextIuv[e.codIpa] ?? 0) + 1;
    state.nextIuv[e.codIpa] = next;
    return mypayIuv(e.segregationCode, next);
  };
  const storeFile = (name: string, bytes: Uint8Array) => {
    const stored = `${randomUUID()}-${name}`;
    fs.writeFileSync(path.join(filesDirectory, stored), bytes);
    const downloadToken = token();
    state.downloads[downloadToken] = stored;
    return `${url}/mybox/download/${downloadToken}/${encodeURIComponent(name)}`;
  };

  const resetState = () => {
    for (const key of Object.keys(state)) delete (state as unknown as Record<string, unknown>)[key];
    Object.assign(state, empty());
  };

  return {
    url,
    options,
    configured,
    entities,
    entity,
    holdMs,
    filesDirectory,
    state,
    switches,
    save,
    saving: () => saving,
    resetState,
    positionKey,
    newIuv,
    storeFile,
  };
}

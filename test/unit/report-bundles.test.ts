import { describe, expect, it } from 'vitest';
import { selectFunctions } from '../../lib/report-bundles.ts';

const fn = (path: string) => ({ node: { path, id: path.split('/').pop()! } });
const functions = [fn('PortaleApi/isee'), fn('PortaleApi/BackgroundJobs/IseeJobs'), fn('PortaleApi/notices')];

describe('report:bundles --only', () => {
  it('keeps every function without --only', () => {
    expect(selectFunctions(functions)).toEqual(functions);
  });

  it('picks functions by the last part of their path or the whole path, in the report’s order', () => {
    const picked = selectFunctions(functions, 'PortaleApi/notices, IseeJobs');
    expect(picked.map((f) => f.node.path)).toEqual(['PortaleApi/BackgroundJobs/IseeJobs', 'PortaleApi/notices']);
  });

  it('refuses a name no function has, listing the names it knows', () => {
    expect(() => selectFunctions(functions, 'isee,IseeJob')).toThrow(
      'No function named IseeJob; the functions: isee, IseeJobs, notices',
    );
  });
});

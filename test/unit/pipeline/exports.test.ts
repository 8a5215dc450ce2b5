// The CSV and OCSF files written source by source to a temp file and renamed at the end: both
// whole after a commit, neither there (nor any temp file) after a failure, an earlier file left as
// it was; a fleet's sources are each tenant's record, read by type.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import {
  exportRows,
  recordSource,
  type ExportSource,
} from '../../../src/pipeline/output/export-rows.js';
import { writeExports } from '../../../src/pipeline/output/exports.js';
import { ocsfEvents } from '../../formats/ocsf-validator.js';
import { sampleSource } from '../formats/export-sample.js';

describe('the findings files', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tenant-scan-exports-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes every source's rows to both files: one header, every tenant", async () => {
    const paths = { csvPath: join(dir, 'a', 'f.csv'), ocsfPath: join(dir, 'a', 'f.ocsf.jsonl') };
    async function* tenants(): AsyncGenerator<ExportSource> {
      for (const name of ['contoso', 'fabrikam', 'tailspin']) yield sampleSource(name);
    }
    const written = await writeExports(tenants(), paths);
    assert.deepEqual(written, paths);
    const rows = parse(await readFile(paths.csvPath, 'utf8'), { bom: true }) as string[][];
    assert.equal(rows.length, 1 + 3 * 4);
    assert.deepEqual(
      [...new Set(rows.slice(1).map((cells) => cells[0]))],
      ['contoso', 'fabrikam', 'tailspin'],
    );
    const events = ocsfEvents(await readFile(paths.ocsfPath, 'utf8'));
    assert.equal(events.length, 12);
    assert.deepEqual(await readdir(join(dir, 'a')), ['f.csv', 'f.ocsf.jsonl']);
  });

  it('a failure part way leaves neither file and no temp file; an earlier file stays', async () => {
    const csvPath = join(dir, 'b.csv');
    await writeFile(csvPath, 'earlier');
    async function* failing(): AsyncGenerator<ExportSource> {
      yield sampleSource('contoso');
      throw new Error('record unreadable');
    }
    await assert.rejects(
      writeExports(failing(), { csvPath, ocsfPath: join(dir, 'b.jsonl') }),
      /record unreadable/,
    );
    assert.equal(await readFile(csvPath, 'utf8'), 'earlier');
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.startsWith('.') || name.startsWith('b.j')),
      [],
    );
  });

  it('nothing asked: nothing written', async () => {
    assert.deepEqual(await writeExports([sampleSource()], {}), {});
  });

  it("a record's fields are read by their type: anything else is left empty", () => {
    const source = recordSource('contoso', {
      scan: { id: 7, completedAt: '2026-11-20T10:00:00Z' },
      writtenAt: '2026-11-21T00:00:00Z',
      findings: [{ title: 'T', severity: 'nope', checkId: ['x'], waiver: 'yes' }, 'not a finding'],
      fixedFindings: 'none',
    });
    assert.equal(source.scanId, null);
    assert.equal(source.time, '2026-11-20T10:00:00Z');
    assert.deepEqual(source.fixed, []);
    const rows = [...exportRows(source)];
    assert.equal(rows.length, 1, 'a finding that is not an object is no row');
    assert.deepEqual(
      [rows[0]?.checkId, rows[0]?.severity, rows[0]?.waiver],
      ['T', 'unknown', null],
    );
    const bare = recordSource('x', { findings: [], writtenAt: '2026-11-21T00:00:00Z' });
    assert.equal(bare.time, '2026-11-21T00:00:00Z', 'no scan: the time the record was written');
    assert.deepEqual(recordSource('y', null).findings, []);
  });
});

// The OCSF Detection Findings, in process: every event validates against the committed schema,
// which itself requires exactly what the OCSF 1.3.0 class requires; statuses, severities and the
// tenant mapped as docs/reports.md says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportRows } from '../../../src/pipeline/output/export-rows.js';
import { ocsfFinding, ocsfLines } from '../../../src/pipeline/output/ocsf.js';
import { ocsfEvents, ocsfProblems, ocsfSchema } from '../../formats/ocsf-validator.js';
import { sampleSource } from './export-sample.js';

/**
 * What the class requires, as read from github.com/ocsf/ocsf-schema at tag 1.3.0 (not from our
 * schema): the attributes with "requirement": "required" of events/base_event.json (metadata,
 * severity_id), includes/classification.json (activity_id, category_uid, class_uid, type_uid),
 * includes/occurrence.json (time), events/findings/finding.json (finding_info) and
 * profiles/cloud.json (cloud; the profile is applied); events/findings/detection_finding.json adds
 * none outside its security_control profile (not applied). Then each object we write:
 * objects/metadata.json, product.json, finding_info.json, cloud.json, remediation.json; and
 * objects/_entity.json's constraint {"at_least_one": ["name", "uid"]}, which product, account and
 * resource_details extend.
 */
const CLASS_REQUIRED: Record<string, string[]> = {
  '': [
    'activity_id',
    'category_uid',
    'class_uid',
    'cloud',
    'finding_info',
    'metadata',
    'severity_id',
    'time',
    'type_uid',
  ],
  metadata: ['product', 'version'],
  product: ['vendor_name'],
  finding_info: ['title', 'uid'],
  cloud: ['provider'],
  remediation: ['desc'],
};
const AT_LEAST_ONE_OF_NAME_AND_UID = ['product', 'account', 'resource_details'];

type Schema = { required?: string[]; allOf?: Array<{ $ref?: string }> };

function part(name: string): Schema {
  const schema = ocsfSchema() as Schema & { $defs: Record<string, Schema> };
  return name === '' ? schema : (schema.$defs[name] ?? {});
}

const events = () => [...exportRows(sampleSource())].map((row) => ocsfFinding(row, 1));

describe('the OCSF schema of what we emit', () => {
  it('requires exactly what the OCSF 1.3.0 class and its objects require', () => {
    for (const [name, required] of Object.entries(CLASS_REQUIRED)) {
      assert.deepEqual([...(part(name).required ?? [])].sort(), required, name || 'the class');
    }
    const entity = part('entity') as { anyOf?: unknown };
    assert.deepEqual(entity.anyOf, [{ required: ['name'] }, { required: ['uid'] }]);
    for (const name of AT_LEAST_ONE_OF_NAME_AND_UID) {
      assert.deepEqual(part(name).allOf, [{ $ref: '#/$defs/entity' }], name);
    }
  });

  it('names its source: the OCSF repository, the tag and the class file', () => {
    const comment = String(ocsfSchema().$comment);
    for (const words of ['ocsf/ocsf-schema', 'tag 1.3.0', 'events/findings/detection_finding.json'])
      assert.ok(comment.includes(words), words);
  });

  it('refuses an event without what the class requires (the check can fail)', () => {
    const [event] = events();
    assert.ok(event);
    assert.deepEqual(ocsfProblems(event), []);
    for (const drop of CLASS_REQUIRED[''] ?? []) {
      const broken = { ...event };
      delete broken[drop];
      assert.notDeepEqual(ocsfProblems(broken), [], drop);
    }
    const info = { ...(event.finding_info as object), uid: undefined };
    assert.notDeepEqual(
      ocsfProblems({ ...event, finding_info: JSON.parse(JSON.stringify(info)) }),
      [],
    );
  });
});

describe('OCSF Detection Findings', () => {
  it('one event per failed finding and per fixed one, each valid, as JSON Lines', () => {
    const text = ocsfLines([...exportRows(sampleSource())], 1);
    const lines = ocsfEvents(text);
    assert.equal(lines.length, 4);
    assert.deepEqual(
      lines.map((e) => (e.finding_info as { uid: string }).uid),
      ['CIS-1', 'CIS-2', 'CIS-3', 'CIS-4'],
    );
    for (const event of lines) {
      assert.equal(event.class_uid, 2004);
      assert.equal(event.category_uid, 2);
      assert.equal(event.type_uid, 200400 + (event.activity_id as number));
    }
  });

  it('status from the baseline and the waivers: new, in progress, suppressed, resolved', () => {
    const [fresh, unchanged, waived, fixed] = events();
    assert.deepEqual(
      [fresh, unchanged, waived, fixed].map((e) => [e?.status_id, e?.status, e?.activity_id]),
      [
        [1, 'New', 1],
        [2, 'In Progress', 2],
        [3, 'Suppressed', 1],
        [4, 'Resolved', 3],
      ],
    );
    assert.equal(waived?.comment, 'Vendor fix due');
    assert.equal(waived?.status_detail, 'waived until 2026-12-31 (risk-accepted)');
  });

  it('severity, time, product, tenant and remediation where the class puts them', () => {
    const [critical] = events();
    assert.equal(critical?.severity_id, 5);
    assert.equal(critical?.severity, 'Critical');
    assert.equal(critical?.time, Date.parse('2026-11-20T10:00:00Z'));
    const metadata = critical?.metadata as { version: string; product: Record<string, string> };
    assert.equal(metadata.version, '1.3.0');
    assert.equal(metadata.product.name, 'tenant-scan');
    assert.match(metadata.product.version ?? '', /^\d+\.\d+\.\d+/);
    assert.deepEqual(critical?.cloud, {
      provider: 'Tenant API',
      account: { name: 'contoso', uid: 'contoso' },
    });
    assert.deepEqual(critical?.resources, [{ type: 'Tenant', name: 'contoso', uid: 'contoso' }]);
    assert.deepEqual(critical?.remediation, {
      desc: 'Turn it on',
      references: ['https://docs.example.com/checks/x'],
    });
    const info = critical?.finding_info as Record<string, unknown>;
    assert.equal(info.first_seen_time, Date.parse('2026-11-01T00:00:00Z'));
    assert.equal(info.src_url, 'https://docs.example.com/checks/x');
  });

  it('maps every severity, and a row without a time takes the time given', () => {
    const ids = (['info', 'low', 'medium', 'high', 'critical', 'unknown'] as const).map(
      (severity) => {
        const [row] = [...exportRows({ ...sampleSource(), time: null, fixed: [] })];
        assert.ok(row);
        const event = ocsfFinding({ ...row, severity, reference: 'javascript:alert(1)' }, 42);
        assert.deepEqual(ocsfProblems(event), []);
        assert.equal(event.time, 42);
        assert.equal((event.finding_info as { src_url?: string }).src_url, undefined);
        return event.severity_id;
      },
    );
    assert.deepEqual(ids, [1, 2, 3, 4, 5, 0]);
  });
});

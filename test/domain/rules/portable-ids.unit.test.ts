// Ids as file names on macOS and Windows (domain/rules/portable-ids.ts): two ids of one
// collection that differ only in case, and the device names Windows reserves. A create that
// would make one is refused; a revision that already holds one is published with warnings,
// and its records can still be changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/domain/judge.ts';
import { checkRevision } from '../../../src/domain/rules/index.ts';
import { caseTwin, idsNotPortable, isWindowsReservedName } from '../../../src/domain/rules/portable-ids.ts';
import { createSnapshot, type Snapshot, snapshotRecords, withRecord } from '../../../src/domain/snapshot.ts';
import { applyWrite } from '../../helpers/apply-write.ts';
import type { ApplyResult, WriteRequest } from '../../../src/domain/writes/write-request.ts';
import { problemDetails } from '../../../src/http/error-mapping.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

/** The shared write token, as the audit trail names it. */
const WRITE_TOKEN_CALLER = { kind: 'service', name: 'write-token' } as const;

function snapshotOf(raw: Parameters<typeof canonicalSets>[0]): Snapshot {
  const built = createSnapshot(canonicalSets(raw), 'r0');
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const rolebinding = (id: string) => ({ id, role: 'view', subjects: [] });
const create = (collection: WriteRequest['collection'], body: Record<string, unknown>): WriteRequest => ({
  kind: 'create',
  collection,
  role: 'write',
  who: WRITE_TOKEN_CALLER,
  body,
});

function refusal(outcome: ApplyResult) {
  if (outcome.ok) throw new Error('the write was not refused');
  const { refusal } = outcome;
  return { ...refusal, details: 'problems' in refusal ? problemDetails(refusal.problems, refusal.subject) : [] };
}

describe('the names Windows reserves', () => {
  it('are CON, PRN, AUX, NUL, COM1-COM9 and LPT1-LPT9 in any case, with or without an extension', () => {
    for (const id of [
      'con',
      'CON',
      'Prn',
      'aux',
      'nul',
      'com1',
      'COM9',
      'lpt1',
      'Lpt9',
      'con.foo',
      'NUL.tar.gz',
      'aux.x-y',
    ]) {
      expect(isWindowsReservedName(id), id).toBe(true);
    }
  });

  it('are only those: longer names, other digits and names that merely start with one are fine', () => {
    for (const id of [
      'console',
      'con-x',
      'con_x',
      'xcon',
      'com0',
      'com10',
      'lpt0',
      'lpt10',
      'nul1',
      'auxiliary',
      'a.con',
      'prn-1.x',
    ]) {
      expect(isWindowsReservedName(id), id).toBe(false);
    }
  });
});

describe('ids that differ only in case', () => {
  const records = new Map(['Alpha', 'BETA', 'beta', 'gamma', 'Gamma'].sort().map((id) => [id, {}]));

  it('are found in either direction, whatever the case of each', () => {
    expect(caseTwin(records, 'alpha')).toBe('Alpha');
    expect(caseTwin(records, 'ALPHA')).toBe('Alpha');
    expect(caseTwin(records, 'Beta')).toBe('beta');
    expect(caseTwin(records, 'GAMMA')).toBe('gamma');
    expect(caseTwin(records, 'Alpha')).toBeUndefined();
    expect(caseTwin(records, 'delta')).toBeUndefined();
  });
});

describe('a revision that already holds such ids', () => {
  const snapshot = snapshotOf({
    ...CRUD_DATA,
    rolebindings: [...CRUD_DATA.rolebindings, rolebinding('Admins'), rolebinding('ADMINS'), rolebinding('lpt1.ops')],
    namespaces: [...CRUD_DATA.namespaces, { id: 'nul' }],
  });

  it(
    'is published, with a warning on each clashing id (naming ' + 'the first of its file name) and each reserved one',
    () => {
      const judgement = judge({ snapshot, problems: [] }, undefined);
      expect(judgement.publish).toBe(true);
      const portability = checkRevision(snapshot).filter(
        (p) => p.code === 'id_case_clash' || p.code === 'reserved_file_name',
      );
      expect(
        portability.map((p) => [p.code, p.severity, `${p.at.record!.collection}/${p.at.record!.id}`, p.at.field]),
      ).toEqual([
        ['reserved_file_name', 'warning', 'namespaces/nul', '/id'],
        ['id_case_clash', 'warning', 'rolebindings/Admins', '/id'],
        ['id_case_clash', 'warning', 'rolebindings/admins', '/id'],
        ['reserved_file_name', 'warning', 'rolebindings/lpt1.ops', '/id'],
      ]);
      expect(portability.find((p) => p.at.record!.id === 'admins')!.message).toBe(
        '"admins" differs only in case from rolebindings id "ADMINS": on a case-insensitive file system (macOS, ' +
          'Windows) rolebindings/ADMINS.yaml and rolebindings/admins.yaml are one file',
      );
      expect(portability.find((p) => p.at.record!.id === 'nul')!.message).toBe(
        '"nul" cannot be a file name on Windows (NUL is a device name there, with any extension), so ' +
          'namespaces/nul.yaml could not be checked out',
      );
    },
  );

  it('takes writes to those records (writes refuse only what they introduce)', () => {
    expect(
      applyWrite(snapshot, {
        kind: 'merge-patch',
        collection: 'rolebindings',
        role: 'write',
        who: WRITE_TOKEN_CALLER,
        id: 'Admins',
        patch: { role: 'edit' },
      }).ok,
    ).toBe(true);
    expect(
      applyWrite(snapshot, {
        kind: 'merge-patch',
        collection: 'namespaces',
        role: 'write',
        who: WRITE_TOKEN_CALLER,
        id: 'nul',
        patch: { labels: { a: 'b' } },
      }).ok,
    ).toBe(true);
    expect(
      applyWrite(snapshot, {
        kind: 'delete',
        collection: 'rolebindings',
        role: 'write',
        who: WRITE_TOKEN_CALLER,
        id: 'lpt1.ops',
      }).ok,
    ).toBe(true);
  });

  it('refuses a create of one more id of the same file name: a conflict naming the existing id', () => {
    const clash = refusal(applyWrite(snapshot, create('rolebindings', rolebinding('AdMiNs'))));
    expect(clash.reason).toBe('conflict');
    expect(clash.message).toBe(
      'rolebindings/AdMiNs cannot be created: "AdMiNs" differs only in case from rolebindings id "admins": on a ' +
        'case-insensitive file system (macOS, Windows) rolebindings/admins.yaml and rolebindings/AdMiNs.yaml are one ' +
        'file',
    );
    expect(clash.details).toEqual([{ path: '/id', message: 'differs only in case from the existing id "admins"' }]);
  });
});

describe('a create', () => {
  const snapshot = snapshotOf(CRUD_DATA);

  it('of an id that differs only in case from an existing one in its collection is a conflict naming it', () => {
    for (const [collection, body, existing] of [
      ['rolebindings', rolebinding('Viewers'), 'viewers'],
      ['clusters', { ...CRUD_DATA.clusters[1], id: 'C0', cluster_dns: 'c0-again.example.com' }, 'c0'],
      ['platform_components', { ...CRUD_DATA.platform_components[3], id: 'UNUSED' }, 'unused'],
    ] as const) {
      const clash = refusal(applyWrite(snapshot, create(collection, body)));
      expect(clash.reason, collection).toBe('conflict');
      expect(clash.message, collection).toContain(`differs only in case from ${collection} id "${existing}"`);
    }
    // Another collection's ids are other files.
    expect(applyWrite(snapshot, create('rolebindings', rolebinding('Team-A'))).ok).toBe(true);
  });

  it('of a name Windows reserves is invalid, at /id', () => {
    for (const [collection, body] of [
      ['namespaces', { id: 'con' }],
      ['rolebindings', rolebinding('COM3')],
      ['rolebindings', rolebinding('Aux.team')],
      ['clusters', { ...CRUD_DATA.clusters[1], id: 'prn', cluster_dns: 'prn.example.com' }],
    ] as const) {
      const invalid = refusal(applyWrite(snapshot, create(collection, body)));
      expect(invalid.reason, body.id).toBe('invalid');
      expect(invalid.details, body.id).toEqual([
        { path: '/id', message: expect.stringMatching(/cannot be a file name on Windows/) },
      ]);
    }
    expect(applyWrite(snapshot, create('namespaces', { id: 'console' })).ok).toBe(true);
  });

  it('of a namespace in capitals is refused by its schema first (400), not as a case clash', () => {
    const invalid = refusal(applyWrite(snapshot, create('namespaces', { id: 'TEAM-A' })));
    expect(invalid.reason).toBe('invalid');
    expect(invalid.details[0].path).toBe('/id');
    expect(invalid.details[0].message).toMatch(/DNS-1123/);
  });
});

describe('the look at ids, carried from write to write', () => {
  const IDS = ['Viewers', 'VIEWERS', 'viewers', 'con', 'Con.x', 'lpt1', 'plain'];

  it('finds what a look at the whole revision finds, after any sequence of creates and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...IDS), fc.boolean()), { maxLength: 30 }), (steps) => {
        let snapshot = snapshotOf(CRUD_DATA);
        idsNotPortable(snapshot);
        for (const [id, present] of steps) {
          const built = withRecord(
            snapshot,
            'rolebindings',
            id,
            present ? { id, role: 'view', subjects: [] } : null,
            'next',
          );
          if (!built.ok) throw new Error('a rolebinding write always builds');
          snapshot = built.snapshot;
          const afresh = createSnapshot(snapshotRecords(snapshot), 'next');
          if (!afresh.ok) throw new Error('the records are valid');
          expect(idsNotPortable(snapshot)).toEqual(idsNotPortable(afresh.snapshot));
          for (const other of IDS)
            expect(caseTwin(snapshot.rolebindings, other), other).toBe(caseTwin(afresh.snapshot.rolebindings, other));
        }
      }),
      { numRuns: 200 },
    );
  });
});

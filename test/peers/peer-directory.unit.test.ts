// PEERS as the service reads it: a DNS name resolved (by the system resolver, as a headless
// Service is) to one URL per address on this replica's own scheme and port, looked up again
// only after a few seconds; a list of URLs taken as it is; this replica's own address skipped
// once known. And the poll records replicas hand each other for the fleet view, at the size
// of a large fleet.
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DNS_CACHE_MS, PeerDirectory } from '../../src/peers/peer-directory.ts';
import { parsePeerSource } from '../../src/peers/peer-source.ts';
import { FleetPolls } from '../../src/serving/fleet-polls.ts';
import { MergedPolls } from '../../src/serving/merged-polls.ts';
import { decodePollRecords, encodePollRecords, MalformedPollRecords } from '../../src/serving/poll-records.ts';

describe('PEERS as a DNS name', () => {
  it(
    'resolves localhost with the system resolver to a ' + "URL per address, on this replica's scheme and port",
    async () => {
      const directory = new PeerDirectory(parsePeerSource('localhost'), { scheme: 'http', port: 0 });
      directory.listeningOn(8123);
      const { urls, failure } = await directory.others();
      expect(failure).toBeUndefined();
      expect(urls).toContain('http://127.0.0.1:8123');
      for (const url of urls) expect(url).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):8123$/);
    },
  );

  it(
    'brackets IPv6 addresses, looks the name up again ' + 'only after the cache time, and skips its own address',
    async () => {
      let lookups = 0;
      let answer = [
        { address: '10.0.0.7', family: 4 },
        { address: 'fd00::8', family: 6 },
      ];
      const directory = new PeerDirectory(
        { kind: 'dns', name: 'peers.example' },
        { scheme: 'https', port: 8443 },
        async () => {
          lookups++;
          return answer;
        },
      );
      expect((await directory.others(1000)).urls).toEqual(['https://10.0.0.7:8443', 'https://[fd00::8]:8443']);
      answer = [{ address: '10.0.0.9', family: 4 }];
      expect((await directory.others(1000 + DNS_CACHE_MS - 1)).urls).toEqual([
        'https://10.0.0.7:8443',
        'https://[fd00::8]:8443',
      ]);
      expect(lookups).toBe(1);
      directory.markSelf('https://10.0.0.9:8443');
      expect((await directory.others(1000 + DNS_CACHE_MS)).urls).toEqual([]);
      expect(lookups).toBe(2);
      expect(directory.count).toBe(0);
    },
  );

  it('reports a failed lookup once, as dns, and keeps the last list for the cache time', async () => {
    let fail = false;
    const directory = new PeerDirectory(
      { kind: 'dns', name: 'peers.example' },
      { scheme: 'http', port: 80 },
      async () => {
        if (fail) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        return [{ address: '10.0.0.7', family: 4 }];
      },
    );
    await directory.others(0);
    fail = true;
    const failed = await directory.others(DNS_CACHE_MS);
    expect(failed.urls).toEqual(['http://10.0.0.7:80']);
    expect(failed.failure).toMatchObject({ reason: 'dns', message: 'peers.example: ENOTFOUND' });
    expect((await directory.others(DNS_CACHE_MS + 1)).failure).toBeUndefined();
  });
});

describe('PEERS as a list of URLs', () => {
  it('takes each base URL once, and refuses what is not one', () => {
    expect(parsePeerSource('http://10.0.0.1:8080, http://10.0.0.2:8080/,http://10.0.0.1:8080')).toEqual({
      kind: 'urls',
      urls: ['http://10.0.0.1:8080', 'http://10.0.0.2:8080'],
    });
    expect(parsePeerSource('gitops-config-api-peers.gitops-config.svc.cluster.local')).toEqual({
      kind: 'dns',
      name: 'gitops-config-api-peers.gitops-config.svc.cluster.local',
    });
    expect(() => parsePeerSource('ftp://10.0.0.1')).toThrow('not an http(s) URL');
    expect(() => parsePeerSource('http://user:pw@10.0.0.1')).toThrow('holds no credentials');
    expect(() => parsePeerSource('http://10.0.0.1/peers')).toThrow('has a path or a query');
    expect(() => parsePeerSource('not a name')).toThrow('neither a DNS name');
  });
});

describe('poll records between replicas', () => {
  const polls = (entries: [string, 'platform-components' | 'namespaces' | 'rolebindings', string, number][]) => {
    const registry = new FleetPolls({ published: () => undefined, onPublish: () => () => undefined });
    for (const [clusterId, endpoint, etag, at] of entries) registry.record({ clusterId, endpoint }, etag, at);
    return registry;
  };

  it('go through JSON unchanged, and the newest poll per cluster and endpoint wins when merged', () => {
    const here = polls([
      ['a', 'namespaces', '"n1"', 100],
      ['a', 'rolebindings', '"r2"', 300],
      ['b', 'namespaces', '"b1"', 50],
    ]);
    const there = decodePollRecords(
      JSON.parse(
        JSON.stringify(
          encodePollRecords(
            polls([
              ['a', 'namespaces', '"n2"', 200],
              ['a', 'rolebindings', '"r1"', 250],
              ['c', 'platform-components', '"p"', 10],
            ]),
          ),
        ),
      ),
    );
    const merged = new MergedPolls(here, [{ of: (id) => there.get(id) }]);
    expect(merged.of('a')).toMatchObject({
      at: { namespaces: 200, rolebindings: 300, 'platform-components': 0 },
      etag: { namespaces: '"n2"', rolebindings: '"r2"' },
    });
    expect(merged.of('b')).toBe(here.of('b'));
    expect(merged.of('c')!.etag['platform-components']).toBe('"p"');
    expect(merged.of('d')).toBeUndefined();
    expect(() => decodePollRecords({ endpoints: ['namespaces'], polls: [['a', 1]] })).toThrow(MalformedPollRecords);
    expect(() => decodePollRecords('<html>')).toThrow(MalformedPollRecords);
  });

  it('hold 50,000 clusters × 3 endpoints: encoded, gzipped, read back whole (the time printed)', () => {
    const entries: [string, 'platform-components' | 'namespaces' | 'rolebindings', string, number][] = [];
    const etag = (i: number, e: number) =>
      `"${Buffer.from(`${i}-${e}-etag-of-the-body`).toString('base64url').slice(0, 22)}"`;
    for (let i = 0; i < 50_000; i++) {
      (['platform-components', 'namespaces', 'rolebindings'] as const).forEach((endpoint, e) =>
        entries.push([`cluster-${String(i).padStart(5, '0')}`, endpoint, etag(i, e), 1_767_000_000_000 + i]),
      );
    }
    const registry = polls(entries);
    const started = performance.now();
    const json = JSON.stringify(encodePollRecords(registry));
    const gzipped = gzipSync(json, { level: 1 });
    const encodedMs = performance.now() - started;
    const decoded = decodePollRecords(JSON.parse(gunzipSync(gzipped).toString('utf8')));
    const totalMs = performance.now() - started;
    console.log(
      `50,000 clusters: ${(json.length / 1e6).toFixed(1)} MB JSON, ${(gzipped.length / 1e6).toFixed(1)} MB gzipped; ` +
        `encoded in ${encodedMs.toFixed(0)} ms, read back in ${(totalMs - encodedMs).toFixed(0)} ms`,
    );
    expect(decoded.size).toBe(50_000);
    expect(decoded.get('cluster-49999')!.etag.rolebindings).toBe(etag(49_999, 2));
    // How fast is printed, not asserted: a shared machine's load decides a wall-clock bound
    // (measured well under a second on a quiet one).
  });
});

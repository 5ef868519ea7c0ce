// Source positions of YAML keys and values by JSON-pointer path.
import { describe, expect, it } from 'vitest';
import { YamlPositions } from '../../../src/domain/repo-layout/yaml-positions.ts';

const TEXT = `# comment
id: c1
cluster_dns: 'c1.example.com'
platform_components:
  - id: cert-manager
    enabled: true
  - {id: podinfo, enabled: false}
namespaces: []
empty:
patches:
  podinfo:
    a/b: "1"
    text: |
      hello
tagged: !!str 3
anchor: &x
  k: v
alias: *x
`;

const at = (path: string, target?: 'key' | 'value' | 'auto') => {
  const p = YamlPositions.of(TEXT)!.locate(path, target);
  return p && `${p.line}:${p.column}`;
};

describe('YamlPositions', () => {
  it('points at scalar values, at the key of collections, and at the key when asked', () => {
    expect(at('/id')).toBe('2:5');
    expect(at('/id', 'key')).toBe('2:1');
    expect(at('/cluster_dns')).toBe('3:14'); // the opening quote
    expect(at('/platform_components')).toBe('4:1');
    expect(at('/platform_components/0')).toBe('5:5');
    expect(at('/platform_components/0/enabled')).toBe('6:14');
    expect(at('/platform_components/1/id')).toBe('7:10'); // inside a flow mapping
    expect(at('/platform_components/1/enabled', 'key')).toBe('7:19');
    expect(at('/namespaces')).toBe('8:1');
    expect(at('/empty')).toBe('9:1'); // no value: its key
    expect(at('/patches/podinfo')).toBe('11:3');
    expect(at('/patches/podinfo/a~1b')).toBe('12:10'); // "/" in a key is escaped as ~1
    expect(at('/patches/podinfo/text')).toBe('13:11'); // the block indicator
    expect(at('/tagged')).toBe('15:9'); // the tag
    expect(at('/anchor')).toBe('16:1');
    expect(at('/anchor', 'value')).toBe('16:9'); // the anchor
    expect(at('/alias')).toBe('18:8');
  });

  it('falls back to the nearest existing parent, then to the document', () => {
    expect(at('/platform_components/0/oci_tag')).toBe('5:5');
    expect(at('/platform_components/7/id')).toBe('4:1');
    expect(at('/nothing/here')).toBe('2:1');
    expect(at('')).toBe('2:1');
  });

  it('counts columns after a byte order mark as editors do', () => {
    expect(YamlPositions.of('\uFEFFid: a\n')!.locate('/id')).toEqual({ line: 1, column: 5 });
  });

  it('gives nothing for text that is not YAML', () => {
    expect(YamlPositions.of('a: [\n')).toBeUndefined();
  });
});

/**
 * A minimal MaxMind DB (format 2.0) writer for tests: an IPv4 search tree with 24-bit records
 * and a data section of `{ country: { iso_code } }` maps, then the metadata. Enough for the
 * `maxmind` reader to answer country lookups; the spec is MaxMind-DB's
 * `MaxMind-DB-spec.md` (search tree, data section separator, data types, metadata marker).
 */

type Value = string | number | bigint | readonly Value[] | { readonly [key: string]: Value };

/** Data types of the spec: 2 string, 5 uint16, 6 uint32, 7 map; extended 9 uint64, 11 array. */
function control(type: number, size: number): Buffer {
  const head = type <= 7 ? type << 5 : 0;
  const sizeBytes: number[] = [];
  let sizeBits = size;
  if (size >= 29) {
    // 29 + next byte covers up to 284: all this writer needs.
    if (size > 284) throw new Error('value too large for the test writer');
    sizeBits = 29;
    sizeBytes.push(size - 29);
  }
  return Buffer.from([head | sizeBits, ...(type > 7 ? [type - 7] : []), ...sizeBytes]);
}

function encode(value: Value, type?: 'uint16' | 'uint32' | 'uint64'): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    let hex = BigInt(value).toString(16);
    if (hex === '0') hex = '';
    if (hex.length % 2) hex = `0${hex}`;
    const bytes = Buffer.from(hex, 'hex');
    const code = type === 'uint64' ? 9 : type === 'uint32' ? 6 : 5;
    return Buffer.concat([control(code, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map((item) => encode(item))]);
  const entries = Object.entries(value as Record<string, Value>);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([key, item]) => [encode(key), encode(item, METADATA_TYPES[key])])]);
}

const METADATA_TYPES: Record<string, 'uint16' | 'uint32' | 'uint64'> = {
  node_count: 'uint32',
  record_size: 'uint16',
  ip_version: 'uint16',
  binary_format_major_version: 'uint16',
  binary_format_minor_version: 'uint16',
  build_epoch: 'uint64',
};

interface TreeNode {
  /** [left (bit 0), right (bit 1)]: a node index, a data offset, or null (no data). */
  readonly records: [TreeNode | { data: number } | null, TreeNode | { data: number } | null];
  index: number;
}

/** An .mmdb mapping each IPv4 network (`81.2.69.0/24`) to its ISO country code. */
export function countryDatabase(networks: Readonly<Record<string, string>>): Buffer {
  const data: Buffer[] = [];
  let dataSize = 0;
  const offsets = new Map<string, number>();
  const root: TreeNode = { records: [null, null], index: 0 };
  const nodes: TreeNode[] = [root];
  for (const [cidr, country] of Object.entries(networks)) {
    if (!offsets.has(country)) {
      const encoded = encode({ country: { iso_code: country } });
      offsets.set(country, dataSize);
      data.push(encoded);
      dataSize += encoded.length;
    }
    const [address, bitsText] = cidr.split('/') as [string, string];
    const bits = Number(bitsText);
    const number = address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
    let node = root;
    for (let depth = 0; depth < bits; depth++) {
      const bit = (Math.floor(number / 2 ** (31 - depth)) & 1) as 0 | 1;
      if (depth === bits - 1) {
        node.records[bit] = { data: offsets.get(country)! };
        break;
      }
      let next = node.records[bit];
      if (!next || 'data' in next) {
        next = { records: [null, null], index: nodes.length };
        nodes.push(next);
        node.records[bit] = next;
      }
      node = next;
    }
  }
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  const recordValue = (record: TreeNode['records'][number]) => (record === null ? nodeCount : 'data' in record ? nodeCount + 16 + record.data : record.index);
  for (const node of nodes) {
    tree.writeUIntBE(recordValue(node.records[0]), node.index * 6, 3);
    tree.writeUIntBE(recordValue(node.records[1]), node.index * 6 + 3, 3);
  }
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 4,
    database_type: 'Tern-Test-Country',
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: BigInt(Math.floor(Date.UTC(2026, 0, 1) / 1000)),
    description: { en: 'Countries for Tern tests' },
  });
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex'), metadata]);
}

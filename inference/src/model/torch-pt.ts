/**
 * Reads one float tensor from a PyTorch `.pt` file without Python and without running anything
 * in it. Since PyTorch 1.6 `torch.save` writes a zip archive: `<root>/data.pkl` (a pickle naming
 * `torch._utils._rebuild_tensor_v2` and storage types, each storage a persistent id), the raw
 * little-endian storages under `<root>/data/<key>`, and `<root>/byteorder`. The pickle is
 * interpreted, never executed: only the opcodes a tensor needs are understood, and the only
 * callables it may name are the tensor rebuilders, storage types and `OrderedDict`. Anything
 * else (another global such as `os.system`, a second tensor, an integer tensor, the pre-1.6
 * format) is refused with an error that says what was found.
 *
 * It reads outside input under budgets enforced while it reads (PtBudgets): the central directory
 * is parsed without inflating anything; only the members the tensor needs (the pickle, the byte
 * order, its one storage) are inflated, each with `maxOutputLength` set to the size the directory
 * records and refused when that size is over its budget; the walk of the unpickled value counts
 * every node it visits (memo references share structure: 44 levels of `[x, x]` are 2^44 visits)
 * and stops at the node budget; a tensor's sizes and strides must fit its storage and may not
 * repeat its elements (a stride-0 view of one element as 400 million is refused).
 */
import { inflateRawSync } from 'node:zlib';
import type { Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';

export interface PtError {
  code: 'MODEL_PT_INVALID';
  message: string;
}

export interface FloatTensor {
  shape: number[];
  /** C order (row-major) float32, whatever the stored float dtype was. */
  data: Float32Array;
  /** The dtype it was stored in. */
  storedAs: StorageDtype;
}

type StorageDtype = 'float32' | 'float64' | 'float16' | 'bfloat16' | 'int64' | 'int32' | 'int16' | 'int8' | 'uint8' | 'bool';

const STORAGE_TYPES: Readonly<Record<string, StorageDtype>> = {
  FloatStorage: 'float32',
  DoubleStorage: 'float64',
  HalfStorage: 'float16',
  BFloat16Storage: 'bfloat16',
  LongStorage: 'int64',
  IntStorage: 'int32',
  ShortStorage: 'int16',
  CharStorage: 'int8',
  ByteStorage: 'uint8',
  BoolStorage: 'bool',
};
const ELEMENT_BYTES: Readonly<Record<StorageDtype, number>> = {
  float32: 4,
  float64: 8,
  float16: 2,
  bfloat16: 2,
  int64: 8,
  int32: 4,
  int16: 2,
  int8: 1,
  uint8: 1,
  bool: 1,
};

class PtRefused extends Error {}
const refuse = (message: string): never => {
  throw new PtRefused(message);
};

// --- zip ---------------------------------------------------------------------------------------

/** What an entry of the central directory records; nothing is inflated until it is needed. */
interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  /** Offset of the entry's data in the archive. */
  start: number;
}

/** The archive's entries by name (stored or deflated; zip64 archives are refused). */
function zipDirectory(bytes: Buffer): Map<string, ZipEntry> {
  const EOCD = 0x06054b50;
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i -= 1) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    const legacy =
      bytes[0] === 0x80
        ? ' (a pickle: the format torch.save wrote before PyTorch 1.6, which is not read; save it again with a recent PyTorch)'
        : '';
    return refuse(`not a zip archive${legacy}`);
  }
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) return refuse('a zip64 archive: a silence latent is small enough for a plain zip');
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return refuse('a damaged zip central directory');
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) return refuse(`a damaged zip entry ${name}`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressed > bytes.length) return refuse(`zip entry ${name} runs past the end of the file`);
    if (method !== 0 && method !== 8) return refuse(`zip entry ${name} uses compression method ${method}`);
    if (entries.has(name)) return refuse(`zip entry ${name} appears twice`);
    entries.set(name, { name, method, compressed, size, start });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * One entry's bytes: refused when the directory records more than `budget` bytes; a deflated entry
 * is inflated with `maxOutputLength` at the recorded size, so a stream that inflates past it stops.
 */
function entryBytes(bytes: Buffer, entry: ZipEntry, budget: number, what: string): Buffer {
  if (entry.size > budget)
    return refuse(`${what} (zip entry ${entry.name}) records ${entry.size} bytes, more than its budget of ${budget}`);
  const raw = bytes.subarray(entry.start, entry.start + entry.compressed);
  let out: Buffer;
  if (entry.method === 0) out = raw;
  else {
    try {
      out = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
    } catch (err) {
      return refuse(
        `zip entry ${entry.name} does not inflate to the ${entry.size} bytes its directory records (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }
  if (out.length !== entry.size) return refuse(`zip entry ${entry.name} is not the size its directory records`);
  return out;
}

// --- pickle ------------------------------------------------------------------------------------

interface Global {
  kind: 'global';
  name: string;
}
interface Storage {
  kind: 'storage';
  dtype: StorageDtype;
  key: string;
  numel: number;
}
interface TensorRef {
  kind: 'tensor';
  storage: Storage;
  offset: number;
  size: number[];
  stride: number[];
}
interface Dict {
  kind: 'dict';
  entries: [Value, Value][];
}
interface Mark {
  kind: 'mark';
}
type Value =
  null | boolean | number | bigint | string | Value[] | { kind: 'tuple'; items: Value[] } | Global | Storage | TensorRef | Dict | Mark;

const ALLOWED_GLOBALS = new Set([
  'torch._utils._rebuild_tensor_v2',
  'torch._utils._rebuild_tensor',
  'collections.OrderedDict',
  ...Object.keys(STORAGE_TYPES).map((s) => `torch.${s}`),
]);

const isTuple = (v: Value): v is { kind: 'tuple'; items: Value[] } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'tuple';
const tupleItems = (v: Value, what: string): Value[] => (isTuple(v) ? v.items : refuse(`${what} is not a tuple`));
const intOf = (v: Value, what: string): number =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'bigint' ? Number(v) : refuse(`${what} is not an integer`);

/** Interprets the pickle's opcodes into values; callables are only recognised, never called. */
function unpickle(bytes: Buffer): Value {
  const stack: Value[] = [];
  const memo = new Map<number, Value>();
  let at = 0;
  const u8 = () => bytes[at++] ?? refuse('the pickle ends early');
  const take = (n: number): Buffer => {
    if (at + n > bytes.length) refuse('the pickle ends early');
    const out = bytes.subarray(at, at + n);
    at += n;
    return out;
  };
  const pop = (): Value => (stack.length > 0 ? (stack.pop() as Value) : refuse('the pickle pops an empty stack'));
  const popMark = (): Value[] => {
    const mark = stack.findLastIndex((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && v.kind === 'mark');
    if (mark < 0) refuse('the pickle has no mark');
    return stack.splice(mark).slice(1);
  };
  const top = (): Value => stack.at(-1) ?? refuse('the pickle reads an empty stack');
  const line = (): string => {
    const end = bytes.indexOf(0x0a, at);
    if (end < 0) refuse('the pickle ends early');
    const text = bytes.toString('utf8', at, end);
    at = end + 1;
    return text;
  };
  for (;;) {
    const op = u8();
    switch (op) {
      case 0x80: // PROTO
        u8();
        break;
      case 0x95: // FRAME
        take(8);
        break;
      case 0x2e: // STOP
        return pop();
      case 0x28: // MARK
        stack.push({ kind: 'mark' });
        break;
      case 0x7d: // EMPTY_DICT
        stack.push({ kind: 'dict', entries: [] });
        break;
      case 0x5d: // EMPTY_LIST
        stack.push([]);
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push({ kind: 'tuple', items: [] });
        break;
      case 0x74: // TUPLE
        stack.push({ kind: 'tuple', items: popMark() });
        break;
      case 0x85:
      case 0x86:
      case 0x87: {
        const n = op - 0x84;
        stack.push({ kind: 'tuple', items: stack.splice(stack.length - n, n) });
        break;
      }
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x88:
        stack.push(true);
        break;
      case 0x89:
        stack.push(false);
        break;
      case 0x4b: // BININT1
        stack.push(u8());
        break;
      case 0x4d: // BININT2
        stack.push(take(2).readUInt16LE(0));
        break;
      case 0x4a: // BININT
        stack.push(take(4).readInt32LE(0));
        break;
      case 0x8a: {
        // LONG1: little-endian two's complement
        const raw = take(u8());
        let value = 0n;
        for (let i = raw.length - 1; i >= 0; i -= 1) value = (value << 8n) | BigInt(raw[i] ?? 0);
        if (raw.length > 0 && ((raw[raw.length - 1] ?? 0) & 0x80) !== 0) value -= 1n << BigInt(raw.length * 8);
        stack.push(value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value);
        break;
      }
      case 0x47: // BINFLOAT (big-endian)
        stack.push(take(8).readDoubleBE(0));
        break;
      case 0x58: // BINUNICODE
        stack.push(take(take(4).readUInt32LE(0)).toString('utf8'));
        break;
      case 0x8c: // SHORT_BINUNICODE
      case 0x55: // SHORT_BINSTRING
        stack.push(take(u8()).toString('utf8'));
        break;
      case 0x54: // BINSTRING
        stack.push(take(take(4).readUInt32LE(0)).toString('latin1'));
        break;
      case 0x71: // BINPUT
        memo.set(u8(), top());
        break;
      case 0x72: // LONG_BINPUT
        memo.set(take(4).readUInt32LE(0), top());
        break;
      case 0x94: // MEMOIZE
        memo.set(memo.size, top());
        break;
      case 0x68: // BINGET
      case 0x6a: {
        // LONG_BINGET
        const key = op === 0x68 ? u8() : take(4).readUInt32LE(0);
        if (!memo.has(key)) refuse(`the pickle reads memo ${key}, which it never stored`);
        stack.push(memo.get(key) ?? null);
        break;
      }
      case 0x63: {
        // GLOBAL
        const name = `${line()}.${line()}`;
        if (!ALLOWED_GLOBALS.has(name))
          refuse(`the pickle names ${name}: only tensors are read from a .pt, and a file that names other code is refused, never run`);
        stack.push({ kind: 'global', name });
        break;
      }
      case 0x51: {
        // BINPERSID: ('storage', storage type, key, location, numel)
        const [tag, type, key, , numel] = tupleItems(pop(), 'a persistent id');
        const typeName = typeof type === 'object' && type !== null && !Array.isArray(type) && type.kind === 'global' ? type.name : '';
        const dtype = STORAGE_TYPES[typeName.replace(/^torch\./, '')];
        if (tag !== 'storage' || dtype === undefined || typeof key !== 'string') refuse('a persistent id that is not a torch storage');
        stack.push({ kind: 'storage', dtype: dtype ?? 'float32', key: String(key), numel: intOf(numel ?? null, 'a storage size') });
        break;
      }
      case 0x52: {
        // REDUCE: only the recognised callables
        const args = tupleItems(pop(), 'the arguments of a call');
        const callable = pop();
        const name =
          typeof callable === 'object' && callable !== null && !Array.isArray(callable) && callable.kind === 'global' ? callable.name : '';
        if (name === 'collections.OrderedDict') stack.push({ kind: 'dict', entries: [] });
        else if (name === 'torch._utils._rebuild_tensor_v2' || name === 'torch._utils._rebuild_tensor') {
          const [storage, offset, size, stride] = args;
          if (typeof storage !== 'object' || storage === null || Array.isArray(storage) || storage.kind !== 'storage')
            refuse('a tensor without a storage');
          stack.push({
            kind: 'tensor',
            storage: storage as Storage,
            offset: intOf(offset ?? null, 'a storage offset'),
            size: tupleItems(size ?? null, 'a tensor size').map((d) => intOf(d, 'a dimension')),
            stride: tupleItems(stride ?? null, 'a tensor stride').map((d) => intOf(d, 'a stride')),
          });
        } else refuse(`the pickle calls ${name || 'something that is not a known function'}`);
        break;
      }
      case 0x62: // BUILD: state on a dict or tensor changes nothing read here
        pop();
        break;
      case 0x73: {
        // SETITEM
        const value = pop();
        const key = pop();
        const dict = top();
        if (typeof dict !== 'object' || dict === null || Array.isArray(dict) || dict.kind !== 'dict') refuse('SETITEM on a non-dict');
        (dict as Dict).entries.push([key, value]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = popMark();
        const dict = top();
        if (typeof dict !== 'object' || dict === null || Array.isArray(dict) || dict.kind !== 'dict') refuse('SETITEMS on a non-dict');
        for (let i = 0; i + 1 < items.length; i += 2) (dict as Dict).entries.push([items[i] ?? null, items[i + 1] ?? null]);
        break;
      }
      case 0x61: {
        // APPEND
        const value = pop();
        const list = top();
        if (!Array.isArray(list)) refuse('APPEND on a non-list');
        (list as Value[]).push(value);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        const list = top();
        if (!Array.isArray(list)) refuse('APPENDS on a non-list');
        (list as Value[]).push(...items);
        break;
      }
      default:
        refuse(`pickle opcode 0x${op.toString(16).padStart(2, '0')} is not one a tensor needs`);
    }
  }
}

// --- tensors -----------------------------------------------------------------------------------

/** Limits on what reading one `.pt` may take, each enforced while it reads. */
export interface PtBudgets {
  /** Bytes of the pickle (`data.pkl`) once inflated. */
  maxPickleBytes: number;
  /** Nodes the walk of the unpickled value may visit (shared memo references count each time). */
  maxNodes: number;
  /** Bytes of the tensor's storage once inflated. */
  maxStorageBytes: number;
  /** Elements of the tensor read out. */
  maxElements: number;
}

/**
 * A silence latent is [1, 64, 15000] float32 (3.84 MB, a 1 kB pickle): these budgets leave room
 * for ten times that and refuse a file that would take more.
 */
export const PT_BUDGETS: Readonly<PtBudgets> = {
  maxPickleBytes: 1 << 20,
  maxNodes: 100_000,
  maxStorageBytes: 64 << 20,
  maxElements: 16 << 20,
};

/** Every tensor in the value, walked without recursion, refused past `maxNodes` visits. */
function tensorsIn(root: Value, maxNodes: number): { path: string; tensor: TensorRef }[] {
  const out: { path: string; tensor: TensorRef }[] = [];
  const stack: { value: Value; path: string }[] = [{ value: root, path: '' }];
  let visited = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    visited += 1;
    if (visited > maxNodes)
      refuse(`the pickle's value has more than ${maxNodes} nodes (shared references counted each time): a silence latent is one tensor`);
    const { value, path } = next;
    if (value === null || typeof value !== 'object') continue;
    const children: { value: Value; path: string }[] = [];
    if (Array.isArray(value)) value.forEach((v, i) => children.push({ value: v, path: `${path}[${i}]` }));
    else if (value.kind === 'tensor') out.push({ path: path || 'the file', tensor: value });
    else if (value.kind === 'tuple') value.items.forEach((v, i) => children.push({ value: v, path: `${path}[${i}]` }));
    else if (value.kind === 'dict') for (const [k, v] of value.entries) children.push({ value: v, path: `${path}[${String(k)}]` });
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
  return out;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction === 0 ? sign * Infinity : NaN;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** bfloat16 is the upper half of a float32: its 16 bits shifted up (the sign bit included). */
const BF16_BITS = new Uint32Array(1);
const BF16_FLOAT = new Float32Array(BF16_BITS.buffer);
function bfloat16ToFloat(h: number): number {
  BF16_BITS[0] = h << 16;
  return BF16_FLOAT[0] ?? Number.NaN;
}

function readElement(storage: Buffer, dtype: StorageDtype, index: number): number {
  switch (dtype) {
    case 'float32':
      return storage.readFloatLE(index * 4);
    case 'float64':
      return storage.readDoubleLE(index * 8);
    case 'float16':
      return halfToFloat(storage.readUInt16LE(index * 2));
    default:
      return bfloat16ToFloat(storage.readUInt16LE(index * 2));
  }
}

/**
 * The tensor's sizes and strides against its storage: non-negative, every element it reaches
 * inside the storage, no more elements than the storage holds (a view repeating its storage, as
 * a stride of 0 does, is refused), and within the element budget.
 */
function checkExtent(tensor: TensorRef, maxElements: number): number {
  const { size, stride, offset } = tensor;
  if (size.length !== stride.length) refuse('the tensor has a size and a stride of different ranks');
  if (offset < 0 || size.some((d) => d < 0) || stride.some((d) => d < 0)) refuse('the tensor has a negative size, stride or offset');
  const count = size.reduce((a, d) => a * d, 1);
  if (count === 0) return 0;
  const last = size.reduce((end, d, axis) => end + (d - 1) * (stride[axis] ?? 0), offset);
  if (last >= tensor.storage.numel) refuse(`the tensor reaches element ${last} of a storage of ${tensor.storage.numel}`);
  if (count > tensor.storage.numel)
    refuse(
      `the tensor [${size.join(', ')}] (strides [${stride.join(', ')}]) reads ${count} elements from a storage of ${tensor.storage.numel}: it repeats its storage`,
    );
  if (count > maxElements) refuse(`the tensor [${size.join(', ')}] has ${count} elements, more than the budget of ${maxElements}`);
  return count;
}

/** The one float tensor a `.pt` file holds (at its top level or as the only tensor in a dict). */
export function readFloatTensor(bytes: Buffer, budgets: Readonly<PtBudgets> = PT_BUDGETS): Result<FloatTensor, PtError> {
  try {
    const entries = zipDirectory(bytes);
    const pickleName = [...entries.keys()].find((name) => name === 'data.pkl' || name.endsWith('/data.pkl'));
    const pickleEntry = pickleName === undefined ? undefined : entries.get(pickleName);
    if (pickleName === undefined || pickleEntry === undefined) return refuse('a zip archive without data.pkl: not written by torch.save');
    const root = pickleName.slice(0, -'data.pkl'.length);
    const byteorderEntry = entries.get(`${root}byteorder`);
    const byteorder = byteorderEntry === undefined ? undefined : entryBytes(bytes, byteorderEntry, 16, 'the byte order');
    if (byteorder !== undefined && byteorder.toString('utf8') !== 'little')
      refuse(`byte order ${byteorder.toString('utf8')}: only little-endian storages are read`);
    const found = tensorsIn(unpickle(entryBytes(bytes, pickleEntry, budgets.maxPickleBytes, 'the pickle')), budgets.maxNodes);
    if (found.length !== 1)
      refuse(
        `the file holds ${found.length} tensors${
          found.length > 1
            ? ` (${found
                .slice(0, 4)
                .map((f) => f.path)
                .join(', ')}${found.length > 4 ? ', …' : ''})`
            : ''
        }; a silence latent is exactly one`,
      );
    const { tensor } = found[0] as { tensor: TensorRef };
    const { dtype } = tensor.storage;
    if (!['float32', 'float64', 'float16', 'bfloat16'].includes(dtype))
      refuse(`the tensor is ${dtype}; a silence latent is a float tensor`);
    const count = checkExtent(tensor, budgets.maxElements);
    const storageEntry = entries.get(`${root}data/${tensor.storage.key}`);
    if (storageEntry === undefined) return refuse(`storage ${tensor.storage.key} is missing from the archive`);
    const needed = tensor.storage.numel * ELEMENT_BYTES[dtype];
    if (storageEntry.size !== needed)
      refuse(
        `storage ${tensor.storage.key} records ${storageEntry.size} bytes; its ${tensor.storage.numel} ${dtype} elements are ${needed}`,
      );
    const storage = entryBytes(bytes, storageEntry, budgets.maxStorageBytes, `storage ${tensor.storage.key}`);
    const data = new Float32Array(count);
    const index = new Array<number>(tensor.size.length).fill(0);
    for (let n = 0; n < count; n += 1) {
      let at = tensor.offset;
      for (const [axis, i] of index.entries()) at += i * (tensor.stride[axis] ?? 0);
      data[n] = readElement(storage, dtype, at);
      for (let axis = index.length - 1; axis >= 0; axis -= 1) {
        index[axis] = (index[axis] ?? 0) + 1;
        if ((index[axis] ?? 0) < (tensor.size[axis] ?? 0)) break;
        index[axis] = 0;
      }
    }
    return ok({ shape: tensor.size, data, storedAs: dtype });
  } catch (err) {
    if (err instanceof PtRefused) return fail({ code: 'MODEL_PT_INVALID', message: err.message });
    return fail({ code: 'MODEL_PT_INVALID', message: `unreadable: ${err instanceof Error ? err.message : String(err)}` });
  }
}

// VTK XML writers (VTK file formats, "XML File Formats": RectilinearGrid .vtr, PolyData .vtp,
// MultiBlock .vtm; https://docs.vtk.org/en/latest/design_documents/VTKFileFormats.html).
// ASCII data arrays: every reader (ParaView, VisIt, VTK, meshio) accepts them without a
// decompression or base64 step, and the files are zipped anyway. ASCII cannot carry NaN portably,
// so callers write 0 where a value does not exist and say so in an extra array (e.g. converged).
// Pure string building: no I/O.

export type VtkType = 'Int32' | 'Float32' | 'Float64' | 'UInt8';

export interface VtkArray {
  name: string;
  type: VtkType;
  values: ArrayLike<number>;
  components?: number;
}

function xmlAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Number text for one value of the given type; non-finite values become 0 (see header). */
function numText(v: number, type: VtkType): string {
  if (!Number.isFinite(v)) return '0';
  if (type === 'Int32' || type === 'UInt8') return String(Math.trunc(v));
  // Float32 holds ~7 significant digits: writing more only adds noise.
  if (type === 'Float32') return String(Number(v.toPrecision(7)));
  return String(v);
}

function dataArray(a: VtkArray, indent: string): string {
  const n = a.values.length;
  const parts: string[] = [];
  const perLine = 12;
  let line: string[] = [];
  for (let i = 0; i < n; i++) {
    line.push(numText(a.values[i]!, a.type));
    if (line.length === perLine) {
      parts.push(indent + '  ' + line.join(' '));
      line = [];
    }
  }
  if (line.length) parts.push(indent + '  ' + line.join(' '));
  let range = '';
  if (n > 0 && (a.components ?? 1) === 1) {
    let lo = Infinity,
      hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = a.values[i]!;
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    if (lo <= hi) range = ` RangeMin="${numText(lo, a.type)}" RangeMax="${numText(hi, a.type)}"`;
  }
  const comps = a.components && a.components > 1 ? ` NumberOfComponents="${a.components}"` : '';
  return `${indent}<DataArray type="${a.type}" Name="${xmlAttr(a.name)}"${comps} format="ascii"${range}>\n${parts.join('\n')}${parts.length ? '\n' : ''}${indent}</DataArray>`;
}

function dataSection(tag: 'PointData' | 'CellData', arrays: VtkArray[], indent: string, scalars?: string): string {
  if (!arrays.length) return `${indent}<${tag}/>`;
  const s = scalars ? ` Scalars="${xmlAttr(scalars)}"` : '';
  return `${indent}<${tag}${s}>\n${arrays.map((a) => dataArray(a, indent + '  ')).join('\n')}\n${indent}</${tag}>`;
}

const HEADER = '<?xml version="1.0"?>\n';

/**
 * RectilinearGrid: the nodes are the tensor product of three coordinate arrays; point data in
 * VTK order (first axis fastest), which is the flat index of the CPT grid.
 */
export function rectilinearGrid(
  coords: [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>],
  pointData: VtkArray[],
  scalars?: string,
): string {
  const n = coords.map((c) => c.length);
  const extent = `0 ${n[0]! - 1} 0 ${n[1]! - 1} 0 ${n[2]! - 1}`;
  const total = n[0]! * n[1]! * n[2]!;
  for (const a of pointData) {
    if (a.values.length !== total * (a.components ?? 1))
      throw new Error(`VTK point array ${a.name}: ${a.values.length} values for ${total} points`);
  }
  const names = ['x_coordinate', 'y_coordinate', 'z_coordinate'];
  return (
    HEADER +
    '<VTKFile type="RectilinearGrid" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n' +
    `  <RectilinearGrid WholeExtent="${extent}">\n` +
    `    <Piece Extent="${extent}">\n` +
    dataSection('PointData', pointData, '      ', scalars) +
    '\n' +
    '      <CellData/>\n' +
    '      <Coordinates>\n' +
    coords.map((c, i) => dataArray({ name: names[i]!, type: 'Float64', values: c }, '        ')).join('\n') +
    '\n' +
    '      </Coordinates>\n' +
    '    </Piece>\n' +
    '  </RectilinearGrid>\n' +
    '</VTKFile>\n'
  );
}

export interface PolyDataInput {
  /** xyz triples */
  points: ArrayLike<number>;
  lines?: number[][];
  polys?: number[][];
  pointData?: VtkArray[];
  /** cell data in VTK cell order: all lines first, then all polygons */
  cellData?: VtkArray[];
}

function cellBlock(tag: 'Lines' | 'Polys', cells: number[][], indent: string): string {
  const conn: number[] = [];
  const offs: number[] = [];
  for (const c of cells) {
    conn.push(...c);
    offs.push(conn.length);
  }
  return (
    `${indent}<${tag}>\n` +
    dataArray({ name: 'connectivity', type: 'Int32', values: conn }, indent + '  ') +
    '\n' +
    dataArray({ name: 'offsets', type: 'Int32', values: offs }, indent + '  ') +
    '\n' +
    `${indent}</${tag}>`
  );
}

export function polyData(input: PolyDataInput): string {
  const nPoints = input.points.length / 3;
  const lines = input.lines ?? [],
    polys = input.polys ?? [];
  const nCells = lines.length + polys.length;
  for (const a of input.cellData ?? []) {
    if (a.values.length !== nCells * (a.components ?? 1))
      throw new Error(`VTK cell array ${a.name}: ${a.values.length} values for ${nCells} cells`);
  }
  for (const a of input.pointData ?? []) {
    if (a.values.length !== nPoints * (a.components ?? 1))
      throw new Error(`VTK point array ${a.name}: ${a.values.length} values for ${nPoints} points`);
  }
  const body: string[] = [
    dataSection('PointData', input.pointData ?? [], '      '),
    dataSection('CellData', input.cellData ?? [], '      '),
    '      <Points>',
    dataArray({ name: 'Points', type: 'Float64', values: input.points, components: 3 }, '        '),
    '      </Points>',
  ];
  if (lines.length) body.push(cellBlock('Lines', lines, '      '));
  if (polys.length) body.push(cellBlock('Polys', polys, '      '));
  return (
    HEADER +
    '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n' +
    '  <PolyData>\n' +
    `    <Piece NumberOfPoints="${nPoints}" NumberOfVerts="0" NumberOfLines="${lines.length}" NumberOfStrips="0" NumberOfPolys="${polys.length}">\n` +
    body.join('\n') +
    '\n' +
    '    </Piece>\n' +
    '  </PolyData>\n' +
    '</VTKFile>\n'
  );
}

/** MultiBlock index (.vtm) that opens several files of the same folder as one ParaView source. */
export function multiBlock(blocks: { name: string; file: string }[]): string {
  return (
    HEADER +
    '<VTKFile type="vtkMultiBlockDataSet" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n' +
    '  <vtkMultiBlockDataSet>\n' +
    blocks.map((b, i) => `    <DataSet index="${i}" name="${xmlAttr(b.name)}" file="${xmlAttr(b.file)}"/>`).join('\n') +
    '\n' +
    '  </vtkMultiBlockDataSet>\n' +
    '</VTKFile>\n'
  );
}

// The grid of a binary_cpt_diagram result in the 3D scene (cpt-scene.ts): every cell of every pressure but the
// selected one as a point cloud coloured by phase set, the selected isobaric slice as opaque quads, one per (x, T)
// cell between the cell edges, in the plane of its pressure, with a frame around that plane. Phase sets the user
// hid are left out of both. Everything is in the unit cube, placed by the axis mapping of results-cpt.ts.
import * as THREE from 'three';
import type { CptResult } from '../../lib/results.js';
import { axisValues, cellEdges, dims, normalizer, phaseSetColor, type AxisMapping } from '../../lib/results-cpt.js';

type Vec = [number, number, number];

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** Position and colour arrays of a BufferGeometry. */
function coloredGeometry(pos: number[], colors: number[]): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
  return g;
}

/** The cloud and the slice of the grid, rebuilt when the slice or the hidden phase sets change. */
export class CptGridLayers {
  readonly nP: number;
  private readonly nX: number;
  private readonly nT: number;
  private readonly nx: (v: number) => number;
  private readonly nt: (v: number) => number;
  private readonly np: (v: number) => number;
  private readonly colorCache = new Map<number, THREE.Color>();
  private readonly cloudMat: THREE.PointsMaterial;
  private readonly sliceMat: THREE.MeshBasicMaterial;
  private readonly xEdges: number[];
  private readonly tEdges: number[];
  private cloud: THREE.Points | null = null;
  private sliceMesh: THREE.Mesh | null = null;
  private sliceFrame: THREE.LineLoop | null = null;
  hidden = new Set<number>();
  slice: number;
  cloudCount = 0;
  sliceCells = 0;

  constructor(
    private readonly scene: THREE.Scene,
    private readonly doc: CptResult,
    private readonly mapping: AxisMapping,
    initialSlice: number,
  ) {
    ({ nX: this.nX, nT: this.nT, nP: this.nP } = dims(doc));
    this.nx = normalizer(doc, 'composition');
    this.nt = normalizer(doc, 'temperature');
    this.np = normalizer(doc, 'pressure');
    this.slice = Math.max(0, Math.min(this.nP - 1, initialSlice));
    this.cloudMat = new THREE.PointsMaterial({
      size: Math.max(0.008, 0.6 / Math.max(this.nX, this.nT, this.nP)),
      vertexColors: true,
      transparent: true,
      opacity: 0.55,
      depthWrite: false,
    });
    this.xEdges = cellEdges(axisValues(doc, 'composition')).map(this.nx);
    this.tEdges = cellEdges(axisValues(doc, 'temperature')).map(this.nt);
    this.sliceMat = new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.DoubleSide });
  }

  /** Scene position of a (composition, temperature, pressure) triple after the axis mapping. */
  private place(c: number, t: number, p: number): Vec {
    const by = { composition: c, temperature: t, pressure: p };
    return [by[this.mapping.x], by[this.mapping.y], by[this.mapping.z]];
  }

  private color(label: number): THREE.Color {
    let c = this.colorCache.get(label);
    if (!c) {
      c = new THREE.Color(phaseSetColor(label));
      this.colorCache.set(label, c);
    }
    return c;
  }

  private label(iX: number, iT: number, iP: number): number {
    return this.doc.labels[(iP * this.nT + iT) * this.nX + iX]!;
  }

  /** Both layers anew (after a change of slice or of the hidden phase sets). */
  build(): void {
    this.buildCloud();
    this.buildSlice();
  }

  private buildCloud(): void {
    if (this.cloud) {
      this.scene.remove(this.cloud);
      this.cloud.geometry.dispose();
    }
    const { nX, nT, nP, doc } = this;
    const pos: number[] = [];
    const colors: number[] = [];
    for (let iP = 0; iP < nP; iP++) {
      if (iP === this.slice) continue; // the slice is drawn as quads
      for (let iT = 0; iT < nT; iT++)
        for (let iX = 0; iX < nX; iX++) {
          const l = this.label(iX, iT, iP);
          if (this.hidden.has(l)) continue;
          pos.push(...this.place(this.nx(doc.axes.x[iX]!), this.nt(doc.axes.T[iT]!), this.np(doc.axes.P[iP]!)));
          const c = this.color(l);
          colors.push(c.r, c.g, c.b);
        }
    }
    this.cloud = new THREE.Points(coloredGeometry(pos, colors), this.cloudMat);
    this.cloudCount = pos.length / 3;
    this.scene.add(this.cloud);
  }

  private buildSlice(): void {
    if (this.sliceMesh) {
      this.scene.remove(this.sliceMesh);
      this.sliceMesh.geometry.dispose();
    }
    if (this.sliceFrame) {
      this.scene.remove(this.sliceFrame);
      this.sliceFrame.geometry.dispose();
    }
    const { nX, nT, xEdges, tEdges } = this;
    const p = this.np(this.doc.axes.P[this.slice]!);
    const pos: number[] = [];
    const colors: number[] = [];
    this.sliceCells = 0;
    for (let iT = 0; iT < nT; iT++)
      for (let iX = 0; iX < nX; iX++) {
        const l = this.label(iX, iT, this.slice);
        if (this.hidden.has(l)) continue;
        const x0 = clamp01(xEdges[iX]!);
        const x1 = clamp01(xEdges[iX + 1]!);
        const t0 = clamp01(tEdges[iT]!);
        const t1 = clamp01(tEdges[iT + 1]!);
        const a = this.place(x0, t0, p);
        const b = this.place(x1, t0, p);
        const c = this.place(x1, t1, p);
        const d = this.place(x0, t1, p);
        pos.push(...a, ...b, ...c, ...a, ...c, ...d);
        const k = this.color(l);
        for (let i = 0; i < 6; i++) colors.push(k.r, k.g, k.b);
        this.sliceCells++;
      }
    this.sliceMesh = new THREE.Mesh(coloredGeometry(pos, colors), this.sliceMat);
    this.scene.add(this.sliceMesh);
    const fg = new THREE.BufferGeometry();
    const corners = [this.place(0, 0, p), this.place(1, 0, p), this.place(1, 1, p), this.place(0, 1, p)];
    fg.setAttribute('position', new THREE.Float32BufferAttribute(corners.flat(), 3));
    this.sliceFrame = new THREE.LineLoop(fg, new THREE.LineBasicMaterial({ color: 0x1d2330 }));
    this.scene.add(this.sliceFrame);
  }
}

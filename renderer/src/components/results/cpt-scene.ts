// The three.js scene of a binary_cpt_diagram result. Loaded with a dynamic import by CptView.svelte, so three.js
// is a separate chunk fetched only when a C–P–T result is opened. Everything is in the unit cube: each scene axis
// shows one of composition / temperature / pressure (axis mapping of results-cpt.ts). All grid cells are a point
// cloud coloured by phase set (grey = not converged); the selected isobaric slice is drawn as opaque coloured
// quads, one per (x, T) cell. Rendering is on demand (orbit, slice change, resize), no animation loop, so an
// idle view costs nothing. No eval, no workers, no blob: URLs: it runs under the listener's CSP unchanged.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DObject, CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import type { CptResult } from '../../lib/results.js';
import {
  axisTicks,
  axisTitle,
  axisValues,
  cellEdges,
  dims,
  normalizer,
  phaseSetColor,
  type AxisMapping,
} from '../../lib/results-cpt.js';

export interface CptScene {
  setSlice(iP: number): void;
  setHidden(hidden: Set<number>): void;
  resetCamera(): void;
  dispose(): void;
  /** For tests: what is drawn. */
  stats(): { points: number; sliceCells: number; slice: number };
}

type Vec = [number, number, number];

export function createCptScene(
  container: HTMLElement,
  doc: CptResult,
  mapping: AxisMapping,
  initialSlice: number,
): CptScene {
  const { nX, nT, nP } = dims(doc);
  const nx = normalizer(doc, 'composition');
  const nt = normalizer(doc, 'temperature');
  const np = normalizer(doc, 'pressure');
  // Scene position of a (composition, temperature, pressure) triple after the axis mapping.
  const place = (c: number, t: number, p: number): Vec => {
    const by = { composition: c, temperature: t, pressure: p };
    return [by[mapping.x], by[mapping.y], by[mapping.z]];
  };

  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  renderer.setClearColor(0xffffff, 1);
  const labelRenderer = new CSS2DRenderer();
  labelRenderer.domElement.classList.add('cpt-labels');
  container.append(renderer.domElement, labelRenderer.domElement);

  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.set(0.5, 0.5, 0.5);
  controls.enableDamping = false;
  const resetCamera = () => {
    camera.position.set(2.1, 1.35, 2.4);
    controls.target.set(0.5, 0.5, 0.5);
    controls.update();
  };
  resetCamera();

  // Unit cube frame.
  const box = new THREE.LineSegments(
    new THREE.EdgesGeometry(new THREE.BoxGeometry(1, 1, 1)),
    new THREE.LineBasicMaterial({ color: 0x667085 }),
  );
  box.position.set(0.5, 0.5, 0.5);
  scene.add(box);

  // Tick labels and axis titles as HTML (CSS2DRenderer): crisp text without font textures.
  const label = (text: string, pos: Vec, cls: string) => {
    const el = document.createElement('div');
    el.className = cls;
    el.textContent = text;
    const o = new CSS2DObject(el);
    o.position.set(...pos);
    scene.add(o);
  };
  const tickMarks: number[] = [];
  const axesDef: { axis: 'x' | 'y' | 'z'; at: (s: number, off: number) => Vec }[] = [
    { axis: 'x', at: (s, off) => [s, -off, 1 + off] },
    { axis: 'y', at: (s, off) => [-off, s, 1 + off] },
    { axis: 'z', at: (s, off) => [1 + off, -off, s] },
  ];
  for (const { axis, at } of axesDef) {
    const v = mapping[axis];
    for (const t of axisTicks(doc, v, 5)) {
      label(t.text, at(t.pos, 0.07), 'cpt-tick');
      tickMarks.push(...at(t.pos, 0), ...at(t.pos, 0.025));
    }
    label(axisTitle(doc, v), at(0.5, 0.2), 'cpt-axis');
  }
  const tickGeom = new THREE.BufferGeometry();
  tickGeom.setAttribute('position', new THREE.Float32BufferAttribute(tickMarks, 3));
  scene.add(new THREE.LineSegments(tickGeom, new THREE.LineBasicMaterial({ color: 0x667085 })));

  const colorOf = (l: number) => new THREE.Color(phaseSetColor(l));
  const colorCache = new Map<number, THREE.Color>();
  const col = (l: number) => {
    let c = colorCache.get(l);
    if (!c) {
      c = colorOf(l);
      colorCache.set(l, c);
    }
    return c;
  };

  let hidden = new Set<number>();
  let slice = Math.max(0, Math.min(nP - 1, initialSlice));

  // Point cloud of the whole grid.
  const cloudMat = new THREE.PointsMaterial({
    size: Math.max(0.008, 0.6 / Math.max(nX, nT, nP)),
    vertexColors: true,
    transparent: true,
    opacity: 0.55,
    depthWrite: false,
  });
  let cloud: THREE.Points | null = null;
  let cloudCount = 0;
  function buildCloud() {
    if (cloud) {
      scene.remove(cloud);
      cloud.geometry.dispose();
    }
    const pos: number[] = [];
    const colors: number[] = [];
    for (let iP = 0; iP < nP; iP++) {
      if (iP === slice) continue; // the slice is drawn as quads
      for (let iT = 0; iT < nT; iT++)
        for (let iX = 0; iX < nX; iX++) {
          const l = doc.labels[(iP * nT + iT) * nX + iX]!;
          if (hidden.has(l)) continue;
          pos.push(...place(nx(doc.axes.x[iX]!), nt(doc.axes.T[iT]!), np(doc.axes.P[iP]!)));
          const c = col(l);
          colors.push(c.r, c.g, c.b);
        }
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
    g.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    cloud = new THREE.Points(g, cloudMat);
    cloudCount = pos.length / 3;
    scene.add(cloud);
  }

  // The isobaric slice: one quad per (x, T) cell between the cell edges, in the plane of its pressure.
  const xEdges = cellEdges(axisValues(doc, 'composition')).map(nx);
  const tEdges = cellEdges(axisValues(doc, 'temperature')).map(nt);
  const clamp01 = (v: number) => Math.max(0, Math.min(1, v));
  const sliceMat = new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.DoubleSide });
  let sliceMesh: THREE.Mesh | null = null;
  let sliceFrame: THREE.LineLoop | null = null;
  let sliceCells = 0;
  function buildSlice() {
    if (sliceMesh) {
      scene.remove(sliceMesh);
      sliceMesh.geometry.dispose();
    }
    if (sliceFrame) {
      scene.remove(sliceFrame);
      sliceFrame.geometry.dispose();
    }
    const p = np(doc.axes.P[slice]!);
    const pos: number[] = [];
    const colors: number[] = [];
    sliceCells = 0;
    for (let iT = 0; iT < nT; iT++)
      for (let iX = 0; iX < nX; iX++) {
        const l = doc.labels[(slice * nT + iT) * nX + iX]!;
        if (hidden.has(l)) continue;
        const x0 = clamp01(xEdges[iX]!);
        const x1 = clamp01(xEdges[iX + 1]!);
        const t0 = clamp01(tEdges[iT]!);
        const t1 = clamp01(tEdges[iT + 1]!);
        const a = place(x0, t0, p);
        const b = place(x1, t0, p);
        const c = place(x1, t1, p);
        const d = place(x0, t1, p);
        pos.push(...a, ...b, ...c, ...a, ...c, ...d);
        const k = col(l);
        for (let i = 0; i < 6; i++) colors.push(k.r, k.g, k.b);
        sliceCells++;
      }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
    g.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    sliceMesh = new THREE.Mesh(g, sliceMat);
    scene.add(sliceMesh);
    const fg = new THREE.BufferGeometry();
    fg.setAttribute(
      'position',
      new THREE.Float32BufferAttribute([...place(0, 0, p), ...place(1, 0, p), ...place(1, 1, p), ...place(0, 1, p)], 3),
    );
    sliceFrame = new THREE.LineLoop(fg, new THREE.LineBasicMaterial({ color: 0x1d2330 }));
    scene.add(sliceFrame);
  }

  function render() {
    renderer.render(scene, camera);
    labelRenderer.render(scene, camera);
  }
  function resize() {
    const w = Math.max(50, container.clientWidth);
    const h = Math.max(50, container.clientHeight);
    renderer.setSize(w, h);
    labelRenderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    render();
  }
  controls.addEventListener('change', render);
  const ro = new ResizeObserver(resize);
  ro.observe(container);

  buildCloud();
  buildSlice();
  resize();

  return {
    setSlice(iP: number) {
      const n = Math.max(0, Math.min(nP - 1, iP));
      if (n === slice) return;
      slice = n;
      buildCloud();
      buildSlice();
      render();
    },
    setHidden(h: Set<number>) {
      hidden = new Set(h);
      buildCloud();
      buildSlice();
      render();
    },
    resetCamera() {
      resetCamera();
      render();
    },
    stats: () => ({ points: cloudCount, sliceCells, slice }),
    dispose() {
      ro.disconnect();
      controls.removeEventListener('change', render);
      controls.dispose();
      scene.traverse((o) => {
        const m = o as THREE.Mesh;
        m.geometry?.dispose?.();
        const mat = m.material as THREE.Material | THREE.Material[] | undefined;
        if (Array.isArray(mat)) mat.forEach((x) => x.dispose());
        else mat?.dispose?.();
      });
      renderer.dispose();
      renderer.forceContextLoss();
      renderer.domElement.remove();
      labelRenderer.domElement.remove();
    },
  };
}

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
import { axisTicks, axisTitle, type AxisMapping } from '../../lib/results-cpt.js';
import { CptGridLayers } from './cpt-scene-grid.js';

export interface CptScene {
  setSlice(iP: number): void;
  setHidden(hidden: Set<number>): void;
  resetCamera(): void;
  dispose(): void;
  /** For tests: what is drawn. */
  stats(): { points: number; sliceCells: number; slice: number };
}

type Vec = [number, number, number];

/** The WebGL canvas and the HTML label layer over it in the container, the scene, the camera and its orbit control. */
interface View {
  renderer: THREE.WebGLRenderer;
  labelRenderer: CSS2DRenderer;
  scene: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  controls: OrbitControls;
}

function createView(container: HTMLElement): View {
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
  return { renderer, labelRenderer, scene, camera, controls };
}

/** The camera's first position, looking at the middle of the cube. */
function resetCamera({ camera, controls }: View): void {
  camera.position.set(2.1, 1.35, 2.4);
  controls.target.set(0.5, 0.5, 0.5);
  controls.update();
}

/**
 * The unit cube's frame and, along three of its edges, the ticks of the variable each scene axis shows; tick labels
 * and axis titles as HTML (CSS2DRenderer): crisp text without font textures.
 */
function addAxes(scene: THREE.Scene, doc: CptResult, mapping: AxisMapping): void {
  const box = new THREE.LineSegments(
    new THREE.EdgesGeometry(new THREE.BoxGeometry(1, 1, 1)),
    new THREE.LineBasicMaterial({ color: 0x667085 }),
  );
  box.position.set(0.5, 0.5, 0.5);
  scene.add(box);
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
}

/** Frees the GPU resources of everything in the scene and removes the canvas and the label layer. */
function disposeView({ renderer, labelRenderer, scene, controls }: View): void {
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
}

export function createCptScene(
  container: HTMLElement,
  doc: CptResult,
  mapping: AxisMapping,
  initialSlice: number,
): CptScene {
  const view = createView(container);
  resetCamera(view);
  addAxes(view.scene, doc, mapping);
  const grid = new CptGridLayers(view.scene, doc, mapping, initialSlice);

  const render = () => {
    view.renderer.render(view.scene, view.camera);
    view.labelRenderer.render(view.scene, view.camera);
  };
  const resize = () => {
    const w = Math.max(50, container.clientWidth);
    const h = Math.max(50, container.clientHeight);
    view.renderer.setSize(w, h);
    view.labelRenderer.setSize(w, h);
    view.camera.aspect = w / h;
    view.camera.updateProjectionMatrix();
    render();
  };
  view.controls.addEventListener('change', render);
  const ro = new ResizeObserver(resize);
  ro.observe(container);

  grid.build();
  resize();

  return {
    setSlice(iP: number) {
      const n = Math.max(0, Math.min(grid.nP - 1, iP));
      if (n === grid.slice) return;
      grid.slice = n;
      grid.build();
      render();
    },
    setHidden(h: Set<number>) {
      grid.hidden = new Set(h);
      grid.build();
      render();
    },
    resetCamera() {
      resetCamera(view);
      render();
    },
    stats: () => ({ points: grid.cloudCount, sliceCells: grid.sliceCells, slice: grid.slice }),
    dispose() {
      ro.disconnect();
      view.controls.removeEventListener('change', render);
      disposeView(view);
    },
  };
}

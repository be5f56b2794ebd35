// The temperature of an ageing treatment against time: constant, or piecewise linear through a schedule of points
// (equal temperatures at two points are a hold, different ones a ramp).
import type { SchedulePoint } from './types.js';

export interface Schedule {
  at(t: number): number;
  /** the largest |dT/dt| over [t, t + dt] (K/s) */
  rate(t: number, dt: number): number;
}

export function scheduleOf(temperature: number | SchedulePoint[]): Schedule | Error {
  if (typeof temperature === 'number') {
    if (!(temperature > 0)) return new Error('temperature: a positive number of kelvin');
    return { at: () => temperature, rate: () => 0 };
  }
  if (temperature.length === 0) return new Error('temperature: give at least one {t, T} point');
  for (let i = 0; i < temperature.length; i++) {
    const p = temperature[i]!;
    if (!(p.T > 0)) return new Error(`temperature[${i}].T: a positive number of kelvin`);
    if (i > 0 && !(p.t > temperature[i - 1]!.t)) return new Error(`temperature[${i}].t: the times must increase`);
  }
  const points = [...temperature];
  const at = (t: number) => {
    if (t <= points[0]!.t) return points[0]!.T;
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!,
        b = points[i]!;
      if (t <= b.t) return a.T + ((b.T - a.T) * (t - a.t)) / (b.t - a.t);
    }
    return points[points.length - 1]!.T;
  };
  const rate = (t: number, dt: number) => {
    let r = 0;
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!,
        b = points[i]!;
      if (b.t > t && a.t < t + dt) r = Math.max(r, Math.abs((b.T - a.T) / (b.t - a.t)));
    }
    return r;
  };
  return { at, rate };
}
